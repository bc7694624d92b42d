import { execFileSync } from 'node:child_process';

/** Where a program of this machine is (`command -v`), or undefined when it is not installed. */
export function which(program: string): string | undefined {
  try {
    return execFileSync('sh', ['-c', `command -v ${program}`], { encoding: 'utf8' }).trim() || undefined;
  } catch {
    return undefined;
  }
}
