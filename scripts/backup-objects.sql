-- The object store keys a portal database names: a backup of the bucket that goes with a dump of
-- this database must hold every one of them (docs/operations.md, "Small installs: `pg_dump` and a
-- copy of the bucket", step 4; and "Checking a restore").
--   psql "$DATABASE_URL" --no-align --tuples-only --file=scripts/backup-objects.sql
-- One key a line, relative to S3_PREFIX (as `npm run bucket-sync` writes them into a directory).
-- Converted web images (content-images/web/) are left out: a build makes them again from the
-- originals.

-- Certification files (services/authFiles.ts).
select 'uploads/' || stored_name from enterprise_auth_files
union
-- Studio images, as uploaded (studio/images.ts).
select 'content-images/originals/' || name from content_images
union
-- Site build archives (site/artifacts.ts): the last 5 publications, which can be rolled back to,
-- and the up to 8 bases an incremental build's archive is a delta over (site/sitePublisher.ts keeps
-- the same set; older archives are pruned).
select 'site/builds/' || lpad(id::text, greatest(6, length(id::text)), '0') || '.tar' from (
  with recursive needed(id, base, depth) as (
    (select id, base_build_id, 0 from site_builds
      where status = 'succeeded' and published_at is not null
      order by published_at desc limit 5)
    union all
    select b.id, b.base_build_id, n.depth + 1 from needed n join site_builds b on b.id = n.base where n.depth < 8
  )
  select id from needed
) as kept
order by 1;
