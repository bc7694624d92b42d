import { parseArgs } from 'node:util';
import { Value } from 'typebox/value';
import { ConfigError, loadConfig } from './config.ts';
import { createDatabase } from './db/client.ts';
import { migrate } from './db/migrate.ts';
import { ProblemError } from './lib/problem.ts';
import { createUsersRepo } from './modules/users/users.repo.ts';
import { CreateUserBody } from './modules/users/users.schemas.ts';
import { createUsersService } from './modules/users/users.service.ts';

const USAGE = `Usage:
  npm run cli -- users create --email E --password P --name N [--role admin]

Creates an account on the database the service is configured for (DATABASE_URL, or the
embedded database in DATA_DIR; stop the server first when it uses the embedded one).`;

/** The admin command line. Returns the process exit code. */
export async function runCli(argv: string[], env = process.env): Promise<number> {
  const [group, command, ...rest] = argv;
  if (group !== 'users' || command !== 'create') {
    console.error(USAGE);
    return 2;
  }
  const { values } = parseArgs({
    args: rest,
    options: { email: { type: 'string' }, password: { type: 'string' }, name: { type: 'string' }, role: { type: 'string' } },
    strict: true,
  });
  // The same schema as POST /admin/users, so the CLI and the API accept exactly the same input.
  const input = { email: values.email, password: values.password, name: values.name, role: values.role ?? 'user' };
  const errors = [...Value.Errors(CreateUserBody, input)];
  if (errors.length > 0) {
    for (const error of errors) console.error(`--${error.instancePath.slice(1) || 'input'}: ${error.message}`);
    console.error(`\n${USAGE}`);
    return 2;
  }

  const config = loadConfig(env);
  const database = await createDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  try {
    await migrate(database);
    const user = await createUsersService({ repo: createUsersRepo(database.db) }).createUser(input as never);
    console.log(`Created ${user.role} ${user.email} (${user.id})`);
    return 0;
  } catch (error) {
    if (error instanceof ProblemError) {
      console.error(error.message);
      return 1;
    }
    throw error;
  } finally {
    await database.close();
  }
}

if (import.meta.main) {
  runCli(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (error: unknown) => {
      console.error(error instanceof ConfigError ? error.message : error);
      process.exit(1);
    },
  );
}
