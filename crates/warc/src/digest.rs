//! SHA-1 digests spelled the way WARC tools expect: `sha1:` and RFC 4648 base32.
//!
//! The WARC standard leaves the digest algorithm and its encoding open, but every tool that
//! deduplicates or verifies (warcio, pywb, Heritrix, the Internet Archive's CDX servers) compares
//! `sha1:` followed by 32 upper-case base32 characters. Hex or SHA-256 would be equally correct by
//! the letter of the standard and would silently defeat every one of those comparisons, so this is
//! the one spelling written here. SHA-1's weakness against chosen collisions does not matter for
//! its use here: spotting accidental damage and identical payloads.

use std::fmt;

/// The RFC 4648 base32 alphabet (upper case letters, then the digits 2 to 7).
const BASE32_ALPHABET: &[u8; 32] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";

/// A SHA-1 digest of a record block or payload.
///
/// `Display` writes the WARC spelling, `sha1:` followed by the base32 encoding
/// (20 bytes encode to exactly 32 characters, so there is never padding).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Sha1Digest(pub [u8; 20]);

impl Sha1Digest {
    /// The digest of `bytes`, computed in one go.
    pub fn of(bytes: &[u8]) -> Sha1Digest {
        let mut hasher = Sha1Hasher::new();
        hasher.update(bytes);
        hasher.finish()
    }

    /// The raw 20 digest bytes.
    pub fn bytes(&self) -> [u8; 20] {
        self.0
    }

    /// The WARC header value, such as `sha1:3I42H3S6NNFQ2MSVX7XZKYAYSCX5QBYJ` for empty input.
    pub fn to_warc_value(&self) -> String {
        format!("sha1:{}", base32_encode(&self.0))
    }
}

impl fmt::Display for Sha1Digest {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter.write_str("sha1:")?;
        formatter.write_str(&base32_encode(&self.0))
    }
}

/// An incremental SHA-1, so a block made of a small head and a large body is digested without
/// first joining the two into one buffer.
pub(crate) struct Sha1Hasher {
    state: sha1_smol::Sha1,
}

impl Sha1Hasher {
    pub(crate) fn new() -> Sha1Hasher {
        Sha1Hasher {
            state: sha1_smol::Sha1::new(),
        }
    }

    pub(crate) fn update(&mut self, bytes: &[u8]) {
        self.state.update(bytes);
    }

    pub(crate) fn finish(&self) -> Sha1Digest {
        Sha1Digest(self.state.digest().bytes())
    }
}

/// RFC 4648 base32 with `=` padding to a multiple of eight characters.
///
/// Written here rather than taken from a crate because it is twenty lines and the only encoding
/// this crate needs; the digests it encodes are always 20 bytes, which need no padding, but the
/// general form is kept so the RFC's own test vectors can check it.
pub fn base32_encode(bytes: &[u8]) -> String {
    let mut encoded = String::with_capacity(bytes.len().div_ceil(5) * 8);
    for group in bytes.chunks(5) {
        // Five bytes are forty bits, which are eight five-bit symbols; a short last group is
        // zero-filled on the right and then only the symbols that carry input bits are kept.
        let mut block = [0u8; 5];
        block[..group.len()].copy_from_slice(group);
        let bits = block.iter().fold(0u64, |accumulated, byte| {
            (accumulated << 8) | u64::from(*byte)
        });
        let symbols_with_data = (group.len() * 8).div_ceil(5);
        for symbol_index in 0..8 {
            if symbol_index < symbols_with_data {
                let shift = 35 - symbol_index * 5;
                let symbol = ((bits >> shift) & 0x1f) as usize;
                encoded.push(char::from(BASE32_ALPHABET[symbol]));
            } else {
                encoded.push('=');
            }
        }
    }
    encoded
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check_base32(input: &[u8], expected: &str) {
        assert_eq!(base32_encode(input), expected, "base32 of {input:?}");
    }

    #[test]
    fn base32_matches_the_rfc_4648_test_vectors() {
        // RFC 4648, section 10.
        check_base32(b"", "");
        check_base32(b"f", "MY======");
        check_base32(b"fo", "MZXQ====");
        check_base32(b"foo", "MZXW6===");
        check_base32(b"foob", "MZXW6YQ=");
        check_base32(b"fooba", "MZXW6YTB");
        check_base32(b"foobar", "MZXW6YTBOI======");
    }

    fn check_digest(input: &[u8], expected: &str) {
        assert_eq!(
            Sha1Digest::of(input).to_string(),
            expected,
            "digest of {input:?}"
        );
        assert_eq!(Sha1Digest::of(input).to_warc_value(), expected);
    }

    #[test]
    fn digests_use_the_spelling_warc_tools_compare() {
        // The empty-payload digest appears in countless real WARC files.
        check_digest(b"", "sha1:3I42H3S6NNFQ2MSVX7XZKYAYSCX5QBYJ");
        // SHA-1("abc") = a9993e36 4706816a ba3e2571 7850c26c 9cd0d89d (FIPS 180 example).
        check_digest(b"abc", "sha1:VGMT4NSHA2AWVOR6EVYXQUGCNSONBWE5");
    }

    #[test]
    fn incremental_and_one_shot_digests_agree() {
        let whole = b"HTTP/1.1 200 OK\r\n\r\nbody bytes";
        for split in 0..=whole.len() {
            let mut hasher = Sha1Hasher::new();
            hasher.update(&whole[..split]);
            hasher.update(&whole[split..]);
            assert_eq!(hasher.finish(), Sha1Digest::of(whole), "split at {split}");
        }
    }
}
