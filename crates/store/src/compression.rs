//! Bodies are stored deflated at a fast level by either backend: forum HTML shrinks about
//! fivefold, and the compression costs far less than the page analysis that runs on every page
//! anyway. Both backends store the same raw deflate stream, so a body reads back the same
//! whichever database held it.

use std::io::Read;

/// Deflate level for bodies: level 1 already shrinks forum HTML about fivefold at a small
/// fraction of the cost of the higher levels, whose extra gain matters less than crawl speed.
const BODY_COMPRESSION_LEVEL: u32 = 1;

/// The compressor [`deflate`] reuses: raw deflate (no zlib header), as
/// `flate2::read::DeflateDecoder` reads it back.
pub(crate) fn body_compressor() -> flate2::Compress {
    flate2::Compress::new(flate2::Compression::new(BODY_COMPRESSION_LEVEL), false)
}

/// `body` compressed by `compressor`, which is reset first and left for the next body.
pub(crate) fn deflate(compressor: &mut flate2::Compress, body: &[u8]) -> Vec<u8> {
    compressor.reset();
    let mut out = Vec::with_capacity(body.len() / 4 + 64);
    loop {
        let consumed = compressor.total_in() as usize;
        match compressor.compress_vec(&body[consumed..], &mut out, flate2::FlushCompress::Finish) {
            Ok(flate2::Status::StreamEnd) => return out,
            // The output is full: room for as much again, then go on where it stopped.
            Ok(flate2::Status::Ok | flate2::Status::BufError) => {
                out.reserve(out.capacity().max(64))
            }
            // Compressing in memory cannot fail; the arm only keeps the function total, and an
            // empty body is what an unreadable page stores.
            Err(_) => return Vec::new(),
        }
    }
}

/// The body a stored deflate stream holds. Bodies left out of a reading come back as an empty
/// value and read as an empty body; a stored body, even an empty one, is a deflate stream of a
/// few bytes at least.
pub(crate) fn inflate(stored: &[u8]) -> std::io::Result<Vec<u8>> {
    if stored.is_empty() {
        return Ok(Vec::new());
    }
    let mut body = Vec::with_capacity(stored.len() * 4);
    flate2::read::DeflateDecoder::new(stored).read_to_end(&mut body)?;
    Ok(body)
}
