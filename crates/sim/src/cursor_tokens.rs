//! Opaque cursor tokens: the spelling of a cursor-paged list's position that hides its number.
//!
//! Cursor-paged lists come in two kinds. Some engines name the next page by a plain number, the
//! id of the last entry shown (`?after=17`). Others wrap the position in a token the client is
//! not meant to read: a base64 blob of a small JSON object, a signed position, a hash-like run of
//! letters and digits (`?after=Gq7dRvX02bK`). A crawler cannot learn anything from such a token's
//! value: it cannot count pages by it, order them by it or guess a neighbour, so the only way to
//! the next page is the link the current page shows. [`Site::with_opaque_cursors`](crate::Site)
//! makes any cursor-paged family spell its cursors this way, so that the same forum can be
//! crawled and watched with either kind.
//!
//! A token is the cursor's number and a checksum of it, scrambled by a key drawn from the
//! forum's seed and written in base 62 at a fixed length. The checksum makes almost every string
//! that was not minted here decode to nothing, as a real server rejects a forged cursor.

use crate::random::mix;
use crate::route::{Address, Route};

/// The digits of the token's base-62 spelling, in value order.
const ALPHABET: &[u8; 62] = b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/// Every token has this many characters: 62^11 exceeds 2^64, so every 64-bit word fits.
const TOKEN_LENGTH: usize = 11;

/// The key that scrambles a forum's tokens, so that two forums never share a token's meaning.
fn key(seed: u64) -> u64 {
    mix(seed, 0x6375_7273_6f72)
}

/// The checksum kept beside the number in the token's low half.
fn checksum(seed: u64, number: u32) -> u32 {
    (mix(seed ^ 0x5eed, u64::from(number)) >> 32) as u32
}

/// The opaque token that stands for cursor `number` on the forum of `seed`.
pub(crate) fn token_of(seed: u64, number: u32) -> String {
    let mut word = ((u64::from(number) << 32) | u64::from(checksum(seed, number))) ^ key(seed);
    let mut digits = [b'0'; TOKEN_LENGTH];
    for digit in digits.iter_mut().rev() {
        *digit = ALPHABET[(word % 62) as usize];
        word /= 62;
    }
    String::from_utf8(digits.to_vec()).expect("the alphabet is ASCII")
}

/// The cursor number `token` stands for on the forum of `seed`, or `None` when it is not a
/// token this forum minted.
pub(crate) fn number_of(seed: u64, token: &str) -> Option<u32> {
    if token.len() != TOKEN_LENGTH {
        return None;
    }
    let mut word: u128 = 0;
    for byte in token.bytes() {
        let value = ALPHABET.iter().position(|&digit| digit == byte)?;
        word = word * 62 + value as u128;
    }
    let word = u64::try_from(word).ok()? ^ key(seed);
    let number = (word >> 32) as u32;
    (word as u32 == checksum(seed, number)).then_some(number)
}

/// `url`, the family's spelling of `address`, with its cursor written as a token when the forum
/// of `opaque_seed` spells cursors opaquely, and under the key `before` when its cursors count
/// down ([`crate::Site::with_cursors_counting_down`]); any other URL unchanged.
pub(crate) fn spell(
    url: String,
    address: &Address,
    opaque_seed: Option<u64>,
    counting_down: bool,
) -> String {
    let Route::BoardAfter { after, .. } = &address.route else {
        return url;
    };
    if opaque_seed.is_none() && !counting_down {
        return url;
    }
    let value = match opaque_seed {
        Some(seed) => token_of(seed, *after),
        None => after.to_string(),
    };
    replace_query_value(
        &url,
        &after.to_string(),
        counting_down.then_some("before"),
        &value,
    )
}

/// `url` with the first query value equal to `value` replaced by `replacement`, under the key
/// `new_key` when one is given (the path and any fragment unchanged).
fn replace_query_value(url: &str, value: &str, new_key: Option<&str>, replacement: &str) -> String {
    let Some((path, query)) = url.split_once('?') else {
        return url.to_string();
    };
    let (query, fragment) = match query.split_once('#') {
        Some((query, fragment)) => (query, Some(fragment)),
        None => (query, None),
    };
    let mut replaced = false;
    let pairs: Vec<String> = query
        .split('&')
        .map(|pair| match pair.split_once('=') {
            Some((key, found)) if !replaced && found == value => {
                replaced = true;
                format!("{}={replacement}", new_key.unwrap_or(key))
            }
            _ => pair.to_string(),
        })
        .collect();
    let mut rebuilt = format!("{path}?{}", pairs.join("&"));
    if let Some(fragment) = fragment {
        rebuilt.push('#');
        rebuilt.push_str(fragment);
    }
    rebuilt
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_round_trip_and_hide_their_number() {
        for seed in [1, 2, 41] {
            for number in [0, 1, 17, 999, 65_536, u32::MAX] {
                let token = token_of(seed, number);
                assert_eq!(token.len(), TOKEN_LENGTH, "{token}");
                assert!(token.bytes().all(|b| b.is_ascii_alphanumeric()), "{token}");
                assert!(
                    !token.contains(&number.to_string()) || number < 10,
                    "{token}"
                );
                assert_eq!(number_of(seed, &token), Some(number), "{token}");
            }
        }
    }

    #[test]
    fn neighbouring_cursors_share_no_visible_order() {
        let tokens: Vec<String> = (1..=20).map(|number| token_of(1, number)).collect();
        let mut sorted = tokens.clone();
        sorted.sort();
        assert_ne!(tokens, sorted, "tokens sort as their numbers do");
    }

    #[test]
    fn strings_not_minted_by_the_forum_are_rejected() {
        let token = token_of(1, 17);
        assert_eq!(number_of(2, &token), None, "another forum's token");
        let mut forged = token.clone().into_bytes();
        forged[TOKEN_LENGTH - 1] = if forged[TOKEN_LENGTH - 1] == b'a' {
            b'b'
        } else {
            b'a'
        };
        assert_eq!(number_of(1, std::str::from_utf8(&forged).unwrap()), None);
        for plain in ["17", "", "zzzzzzzzzzz", "0000000000!", "0123456789ab"] {
            assert_eq!(number_of(1, plain), None, "{plain}");
        }
    }
}
