//! What the last audit of each site found, for `trawl fleet status`: the gaps it named (pages
//! that should exist and are not stored) and the posts the forum counts that are not stored.

use crate::{Fleet, FleetError, Lease};

/// Creates the audits' table when missing.
pub(crate) const SCHEMA: &str = "\
    CREATE TABLE IF NOT EXISTS site_audits (\
        site bigint PRIMARY KEY REFERENCES sites (id) ON DELETE CASCADE, \
        gaps bigint NOT NULL, \
        posts_missing bigint NOT NULL, \
        audited_at timestamptz NOT NULL DEFAULT now());";

/// The last audit of a site.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AuditSummary {
    /// Gaps the audit named.
    pub gaps: i64,
    /// Posts the forum counts that the store does not hold.
    pub posts_missing: i64,
}

impl Fleet {
    /// Records the audit made under `lease`; fails with [`FleetError::LeaseLost`], recording
    /// nothing, when another worker holds the site now.
    pub fn record_audit(&mut self, lease: &Lease, audit: AuditSummary) -> Result<(), FleetError> {
        let recorded = self
            .client
            .execute(
                "INSERT INTO site_audits (site, gaps, posts_missing) \
                 SELECT id, $3, $4 FROM sites WHERE id = $1 AND lease_epoch = $2 \
                 ON CONFLICT (site) DO UPDATE SET gaps = EXCLUDED.gaps, \
                 posts_missing = EXCLUDED.posts_missing, audited_at = now()",
                &[
                    &lease.site_id,
                    &lease.epoch,
                    &audit.gaps,
                    &audit.posts_missing,
                ],
            )
            .map_err(|source| self.database_error(source))?;
        crate::held(recorded, lease)
    }
}
