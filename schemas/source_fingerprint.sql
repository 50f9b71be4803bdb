-- The stat fingerprint of every file version this run read and already knew (content already
-- ingested, a file touched), so the next run skips it unread (flows/extract.py unchanged); new
-- versions got theirs when inserted (merge/10_files.sql). Run in the load transaction after the
-- merge. Updating the rows this run inserted too took 1.1 s for 100,000 files. Its location too:
-- a version ingested before locations were kept, or whose folder was moved since, is known
-- where it is now (flows/extract.py identified).
UPDATE dim_source_file d
SET mtime_ns = s.mtime_ns, ctime_ns = s.ctime_ns, inode = s.inode, location = coalesce(s.location, d.location)
FROM stg_files s
WHERE d.path = s.path AND d.sha256 = s.sha256 AND s.other_file IS NULL  -- (a copy elsewhere: not this file)
  AND (d.mtime_ns, d.ctime_ns, d.inode, d.location) IS DISTINCT FROM (s.mtime_ns, s.ctime_ns, s.inode, s.location)
