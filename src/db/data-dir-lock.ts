import fs from 'node:fs';
import path from 'node:path';

export class DataDirLockedError extends Error {
  readonly pid: number;
  constructor(dataDir: string, pid: number) {
    super(
      `${dataDir} is in use by process ${pid} (the embedded database is single-process): stop that process ` +
        `(the server, npm run demo or the CLI), or use another DATA_DIR, or DATABASE_URL for several processes`,
    );
    this.pid = pid;
  }
}

const isAlive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'; // alive, owned by someone else
  }
};

/**
 * Claims DATA_DIR for this process: a `lock` file holding our pid, created with O_EXCL so
 * two processes starting together cannot both win. A lock whose process is gone (kill -9,
 * a crash) is stale and taken over. proper-lockfile was considered: it judges staleness by
 * an mtime it refreshes on a timer and records no pid, so it could not say who holds the
 * directory. Returns the release function (also run on exit).
 */
export function lockDataDir(dataDir: string): () => void {
  const file = path.join(dataDir, 'lock');
  for (let attempt = 0; ; attempt++) {
    try {
      fs.writeFileSync(file, `${process.pid}\n`, { flag: 'wx', mode: 0o600 });
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || attempt > 2) throw error;
      const holder = Number.parseInt(fs.readFileSync(file, 'utf8'), 10);
      // Our own pid in the file is a lock left by an earlier life of this pid (a container's pid 1).
      if (Number.isInteger(holder) && holder > 0 && holder !== process.pid && isAlive(holder)) throw new DataDirLockedError(dataDir, holder);
      fs.rmSync(file, { force: true }); // stale: its process is gone
    }
  }
  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    process.off('exit', release);
    try {
      if (fs.readFileSync(file, 'utf8').trim() === String(process.pid)) fs.rmSync(file, { force: true });
    } catch {
      // already gone
    }
  };
  process.on('exit', release);
  return release;
}
