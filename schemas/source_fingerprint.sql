-- The stat fingerprint of every file version this run read, new or already known (content
-- already ingested), so the next run skips it unread (flows/extract.py unchanged). Run in the
-- load transaction after the merge.
UPDATE dim_source_file d
SET mtime_ns = s.mtime_ns, ctime_ns = s.ctime_ns, inode = s.inode
FROM stg_files s
WHERE d.path = s.path AND d.sha256 = s.sha256
