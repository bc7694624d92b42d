import { hash, verify } from '@node-rs/argon2';

// OWASP's first argon2id profile: 19 MiB, two passes, one lane. The library's default
// algorithm is argon2id (its const enum cannot be imported under isolatedModules);
// a test checks the hash says so.
const ARGON2_OPTIONS = { memoryCost: 19_456, timeCost: 2, parallelism: 1, outputLen: 32 };

export const hashPassword = (password: string) => hash(password, ARGON2_OPTIONS);

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false; // a malformed stored hash never signs anyone in
  }
}

// Verified against when the e-mail is unknown, so a miss costs as long as a hit and the
// response time does not reveal which e-mails have accounts.
let decoyHash: Promise<string> | undefined;
export const decoyPasswordHash = () => (decoyHash ??= hashPassword('decoy-password-for-unknown-accounts'));
