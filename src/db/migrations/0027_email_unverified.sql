-- An account made by accepting an invitation: whoever held the link chose its password, and the
-- address was never proven (the inviter sees the link too). Cleared once the address is proven:
-- a password reset from a link e-mailed to it, or a Google sign-in with that verified address,
-- which also drops the password chosen before and ends every session of the account.
alter table users add column email_unverified boolean not null default false;
