-- The time zone a person reads dates in (an IANA name such as Europe/Lisbon); null: the
-- browser's own. Search Console's figures stay on its Pacific days whatever this says.
alter table users add column time_zone text;
