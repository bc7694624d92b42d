import type { Kysely } from 'kysely';
import { transactor } from '../../src/db/transact.ts';
import type { DB } from '../../src/db/types.ts';
import { createSecretBox } from '../../src/lib/secret-box.ts';
import { createSitesRepo } from '../../src/modules/sites/sites.repo.ts';
import { createSitesService } from '../../src/modules/sites/sites.service.ts';
import { createAccess } from '../../src/modules/workspaces/access.ts';
import { createAccessRepo } from '../../src/modules/workspaces/access.repo.ts';
import { createInvitationsRepo } from '../../src/modules/workspaces/invitations.repo.ts';
import { createWorkspacesRepo } from '../../src/modules/workspaces/workspaces.repo.ts';
import { createWorkspacesService } from '../../src/modules/workspaces/workspaces.service.ts';

/** The sites service as the container builds it, on a test's database, for tests that assemble services by hand. */
export function sitesServiceOn(db: Kysely<DB>) {
  const workspaces = createWorkspacesService({
    repo: createWorkspacesRepo(db), invitations: createInvitationsRepo(db), transact: transactor(db), publicUrl: 'http://localhost',
    queue: { send: async () => null }, secrets: createSecretBox('test-secrets-key-for-services-built-by-hand'), signIn: async () => ({}),
  });
  return createSitesService({ repo: createSitesRepo(db), allowPrivateTargets: false, queue: { send: async () => null }, access: createAccess(createAccessRepo(db)), workspaces });
}

/** A user's personal workspace id, as a subquery for a site inserted directly. */
export const personalWorkspace = (db: Kysely<DB>, userId: string) => db.selectFrom('workspaces').select('id').where('personal_of', '=', userId);
