//! Deterministic `WARC-Record-ID`s: name-based UUIDs derived from what a record is.
//!
//! Most WARC writers draw a random (version 4) UUID for every record. trawl instead derives a
//! version 5 UUID (RFC 9562: SHA-1 over a namespace and a name) from the record's identity, its
//! type, target URI, date and block digest, for three reasons:
//!
//! - Exporting the same store twice gives byte-identical files, so an export can be checked by
//!   comparing digests, cached, or diffed, and a test can pin exact bytes.
//! - Records that point at each other (`WARC-Concurrent-To`, `WARC-Refers-To`,
//!   `WARC-Warcinfo-ID`) keep pointing at the right record across re-exports, even when a later
//!   export is split into different files.
//! - Nothing in the writer needs a source of randomness, which trawl otherwise keeps out of its
//!   libraries just as it keeps the wall clock out.
//!
//! The identity includes the block digest, so two records can share an id only if they are the
//! same bytes about the same URI at the same instant, which is one observation recorded twice.
//! The writer still keeps ids unique within a file by adding an occurrence number when that
//! happens (see `WarcWriter`), because the standard asks for ids to be unique.

use std::fmt;

use crate::digest::Sha1Hasher;

/// The namespace UUID of trawl's record ids. It was chosen once, arbitrarily, and must never
/// change: every id ever exported depends on it.
const TRAWL_RECORD_NAMESPACE: [u8; 16] = [
    0x3b, 0x8e, 0x5d, 0x21, 0x94, 0x0f, 0x4c, 0x6a, 0xb1, 0x7d, 0xe2, 0x58, 0x0c, 0x93, 0x46, 0xfa,
];

/// A `WARC-Record-ID`: a UUID written as `<urn:uuid:…>`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct RecordId(pub [u8; 16]);

/// The parts of a record that name it. Two records with equal identities are the same record.
pub(crate) struct RecordIdentity<'a> {
    pub(crate) record_type: &'a str,
    pub(crate) target_uri: &'a str,
    pub(crate) warc_date: &'a str,
    pub(crate) block_digest: &'a str,
}

impl RecordId {
    /// The version 5 UUID of `identity`; `occurrence` is zero for the first record with this
    /// identity in a file and counts up for repeats, so repeats get distinct ids in a fixed order.
    pub(crate) fn derive(identity: &RecordIdentity<'_>, occurrence: u64) -> RecordId {
        let mut hasher = Sha1Hasher::new();
        hasher.update(&TRAWL_RECORD_NAMESPACE);
        // Every part is followed by a newline, which none of them can contain (URIs and dates are
        // checked before this point), so no two different identities hash the same name.
        for part in [
            identity.record_type,
            identity.target_uri,
            identity.warc_date,
            identity.block_digest,
        ] {
            hasher.update(part.as_bytes());
            hasher.update(b"\n");
        }
        if occurrence > 0 {
            hasher.update(format!("occurrence {occurrence}\n").as_bytes());
        }
        let digest = hasher.finish().bytes();
        let mut uuid = [0u8; 16];
        uuid.copy_from_slice(&digest[..16]);
        // RFC 9562, section 5.5: version 5 in the high nibble of byte 6, variant 10 in the two
        // high bits of byte 8.
        uuid[6] = (uuid[6] & 0x0f) | 0x50;
        uuid[8] = (uuid[8] & 0x3f) | 0x80;
        RecordId(uuid)
    }

    /// The UUID alone, in its canonical lower-case hyphenated form.
    pub fn uuid_string(&self) -> String {
        let hex: String = self.0.iter().map(|byte| format!("{byte:02x}")).collect();
        format!(
            "{}-{}-{}-{}-{}",
            &hex[0..8],
            &hex[8..12],
            &hex[12..16],
            &hex[16..20],
            &hex[20..32]
        )
    }
}

impl fmt::Display for RecordId {
    /// The header value, `<urn:uuid:xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx>`.
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(formatter, "<urn:uuid:{}>", self.uuid_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn identity<'a>(record_type: &'a str, uri: &'a str, date: &'a str) -> RecordIdentity<'a> {
        RecordIdentity {
            record_type,
            target_uri: uri,
            warc_date: date,
            block_digest: "sha1:3I42H3S6NNFQ2MSVX7XZKYAYSCX5QBYJ",
        }
    }

    #[test]
    fn ids_are_version_5_with_the_rfc_variant_and_written_as_urns() {
        let id = RecordId::derive(
            &identity("response", "http://a.example/", "2024-01-01T00:00:00Z"),
            0,
        );
        let text = id.to_string();
        assert!(
            text.starts_with("<urn:uuid:") && text.ends_with('>'),
            "{text}"
        );
        let uuid = id.uuid_string();
        assert_eq!(uuid.len(), 36);
        assert_eq!(&uuid[14..15], "5", "version nibble in {uuid}");
        assert!(
            matches!(&uuid[19..20], "8" | "9" | "a" | "b"),
            "variant in {uuid}"
        );
    }

    #[test]
    fn each_part_of_the_identity_changes_the_id() {
        let base = identity("response", "http://a.example/", "2024-01-01T00:00:00Z");
        let base_id = RecordId::derive(&base, 0);
        let variations = [
            identity("request", "http://a.example/", "2024-01-01T00:00:00Z"),
            identity("response", "http://a.example/x", "2024-01-01T00:00:00Z"),
            identity("response", "http://a.example/", "2024-01-01T00:00:01Z"),
            RecordIdentity {
                block_digest: "sha1:VGMT4NSHA2AWVOR6EVYXQUGCNSONBWE5",
                ..identity("response", "http://a.example/", "2024-01-01T00:00:00Z")
            },
        ];
        for variation in &variations {
            assert_ne!(RecordId::derive(variation, 0), base_id);
        }
        assert_ne!(RecordId::derive(&base, 1), base_id);
        assert_ne!(RecordId::derive(&base, 1), RecordId::derive(&base, 2));
        assert_eq!(
            RecordId::derive(&base, 0),
            base_id,
            "derivation is deterministic"
        );
    }

    #[test]
    fn moving_text_between_parts_changes_the_id() {
        // Without a separator "ab" + "c" and "a" + "bc" would name the same record.
        let first = identity("response", "http://a.example/ab", "c");
        let second = identity("response", "http://a.example/a", "bc");
        assert_ne!(RecordId::derive(&first, 0), RecordId::derive(&second, 0));
    }
}
