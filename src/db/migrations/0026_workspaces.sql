-- Workspaces: an agency's client or a team, holding sites; members act in them by role.
-- Every user has a personal workspace (personal_of), made with the account by a trigger so no
-- path that creates a user (the CLI, Google sign-in, an invitation) can leave one without it.
create table workspaces (
  id           uuid primary key default gen_random_uuid(),
  name         text not null,
  personal_of  uuid unique references users (id) on delete cascade,
  created_at   timestamptz not null default now(),
  updated_at   timestamptz not null default now()
);

create table workspace_members (
  workspace_id uuid not null references workspaces (id) on delete cascade,
  user_id      uuid not null references users (id) on delete cascade,
  role         text not null check (role in ('owner', 'admin', 'editor', 'viewer')),
  created_at   timestamptz not null default now(),
  primary key (workspace_id, user_id)
);
-- "The workspaces this user is in": the subquery of every site-scoped read.
create index workspace_members_user_idx on workspace_members (user_id, workspace_id);

-- Invitations: a single-use link (only its SHA-256 kept) that makes its holder a member.
create table workspace_invitations (
  id           uuid primary key default gen_random_uuid(),
  workspace_id uuid not null references workspaces (id) on delete cascade,
  email        text not null,
  role         text not null check (role in ('owner', 'admin', 'editor', 'viewer')),
  token_hash   text not null unique,
  invited_by   uuid references users (id) on delete set null,
  expires_at   timestamptz not null,
  accepted_at  timestamptz,
  accepted_by  uuid references users (id) on delete set null,
  revoked_at   timestamptz,
  created_at   timestamptz not null default now()
);
create index workspace_invitations_workspace_idx on workspace_invitations (workspace_id, created_at desc);

create function create_personal_workspace() returns trigger language plpgsql as $$
declare
  workspace uuid;
begin
  insert into workspaces (name, personal_of) values ('Personal', new.id) returning id into workspace;
  insert into workspace_members (workspace_id, user_id, role) values (workspace, new.id, 'owner');
  return new;
end
$$;
create trigger users_personal_workspace after insert on users
  for each row execute function create_personal_workspace();

-- Existing accounts get theirs, and their sites move into it.
insert into workspaces (name, personal_of) select 'Personal', id from users;
insert into workspace_members (workspace_id, user_id, role) select id, personal_of, 'owner' from workspaces;

-- sites.owner_id stays: the member who added the site, whose Google connection feeds its search data.
alter table sites add column workspace_id uuid references workspaces (id) on delete cascade;
update sites set workspace_id = workspaces.id from workspaces where workspaces.personal_of = sites.owner_id;
alter table sites alter column workspace_id set not null;
alter table sites drop constraint sites_owner_domain_key;
alter table sites add constraint sites_workspace_domain_key unique (workspace_id, domain);
create index sites_workspace_created_idx on sites (workspace_id, created_at desc, id);

-- A site belongs to its workspace: the member who added it may leave or be deleted without it.
alter table sites alter column owner_id drop not null;
alter table sites drop constraint sites_owner_id_fkey;
alter table sites add constraint sites_owner_id_fkey foreign key (owner_id) references users (id) on delete set null;
