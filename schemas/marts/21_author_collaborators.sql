-- Grain: one row per author × collaborator (both directions of marts.coauthor_pairs), so
-- "who has X worked with" is one WHERE author_id = ? away.
CREATE OR REPLACE VIEW marts.author_collaborators AS
SELECT author_id_a AS author_id, name_a AS name, author_id_b AS collaborator_id, name_b AS collaborator_name,
       n_papers, n_listings, first_listed_on, last_listed_on
FROM marts.coauthor_pairs
UNION ALL
SELECT author_id_b, name_b, author_id_a, name_a, n_papers, n_listings, first_listed_on, last_listed_on
FROM marts.coauthor_pairs;

COMMENT ON VIEW marts.author_collaborators IS 'Each author''s collaborators with the number of shared papers (both directions of coauthor_pairs).';
COMMENT ON COLUMN marts.author_collaborators.author_id IS 'The author (dim_author).';
COMMENT ON COLUMN marts.author_collaborators.name IS 'Display name of the author.';
COMMENT ON COLUMN marts.author_collaborators.collaborator_id IS 'A co-author (dim_author).';
COMMENT ON COLUMN marts.author_collaborators.collaborator_name IS 'Display name of the co-author.';
COMMENT ON COLUMN marts.author_collaborators.n_papers IS 'Papers they share.';
COMMENT ON COLUMN marts.author_collaborators.n_listings IS 'Listings of the shared papers.';
COMMENT ON COLUMN marts.author_collaborators.first_listed_on IS 'Earliest listing date of a shared paper.';
COMMENT ON COLUMN marts.author_collaborators.last_listed_on IS 'Latest listing date of a shared paper.';
