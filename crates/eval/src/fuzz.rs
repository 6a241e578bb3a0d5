//! `trawl bench fuzz`: random and mangled pages through the whole page analysis, looking for
//! panics, and through both tokenizers (trawl's and html5ever's), looking for any page on which
//! they give the tree builder different tokens. Inputs are random byte strings and real pages
//! mangled by truncation, byte flips, injected tags and splices of two pages; any input that
//! panics or makes the tokenizers disagree is saved for a regression test.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use crate::error::{EvalError, Result};
use trawl_page::analysis::{analyse_text, decode_page_of};
use trawl_page::dom::{TokenizerCheck, check_tokenizer};
use trawl_page::time::DateContext;

/// xorshift64*: a fixed, dependency-free stream so that a run can be repeated from its seed.
struct Stream(u64);

impl Stream {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, bound: usize) -> usize {
        (self.next() % bound.max(1) as u64) as usize
    }
}

const FRAGMENTS: [&[u8]; 27] = [
    b"<title>",
    b"</textarea>",
    b"<style>",
    b"<!-- <script>",
    b"--!>",
    b"&#x",
    b"&notin",
    b"<!DOCTYPE html PUBLIC \"-//W3C//DTD HTML 4.01//EN\">",
    b"<span/>",
    b"<a b=c d='e' f>",
    b"</",
    b"<div>",
    b"</div>",
    b"<table>",
    b"</td>",
    b"<tr>",
    b"<p>",
    b"<a href=\"",
    b"\">",
    b"<!--",
    b"-->",
    b"<script>",
    b"</script>",
    b"<br/>",
    b"&amp;",
    b"\xE6\x98\xA8\xE5\xA4\xA9 22:31",
    b"<meta charset=gbk>",
];

fn mangle(stream: &mut Stream, pages: &[Vec<u8>]) -> Vec<u8> {
    if pages.is_empty() || stream.below(10) == 0 {
        let length = stream.below(4096);
        return (0..length).map(|_| stream.next() as u8).collect();
    }
    let mut page = pages[stream.below(pages.len())].clone();
    for _ in 0..1 + stream.below(8) {
        match stream.below(5) {
            0 => page.truncate(stream.below(page.len() + 1)),
            1 => {
                for _ in 0..1 + stream.below(64) {
                    if !page.is_empty() {
                        let at = stream.below(page.len());
                        page[at] = stream.next() as u8;
                    }
                }
            }
            2 => {
                let fragment = FRAGMENTS[stream.below(FRAGMENTS.len())];
                let at = stream.below(page.len() + 1);
                page.splice(at..at, fragment.iter().copied());
            }
            3 => {
                let other = &pages[stream.below(pages.len())];
                let cut = stream.below(page.len() + 1);
                let from = stream.below(other.len() + 1);
                page.truncate(cut);
                page.extend_from_slice(&other[from..]);
            }
            _ => {
                let at = stream.below(page.len() + 1);
                let repeat = FRAGMENTS[stream.below(FRAGMENTS.len())].repeat(1 + stream.below(200));
                page.splice(at..at, repeat);
            }
        }
    }
    page
}

/// What a fuzzing run went through.
#[derive(Debug, Default)]
pub struct FuzzCounts {
    /// Inputs analysed.
    pub inputs: u64,
    /// Inputs trawl's tokenizer read, each giving html5ever's tokens.
    pub tokenizer_agreed: u64,
    /// Inputs trawl's tokenizer refused (html5ever's parses them).
    pub tokenizer_refused: u64,
}

/// Runs for `duration`.
pub fn run(gold: &Path, duration: Duration, seed: u64, crashes: &Path) -> Result<FuzzCounts> {
    // A gold directory that cannot be read or holds no page is an error, not a run on random
    // strings alone: half of the inputs are meant to be mangled real pages, and a mistyped path
    // would otherwise pass unnoticed.
    let pages: Vec<Vec<u8>> = crate::wf52::read_gold_pages(gold)?
        .iter()
        .map(|page| page.html().as_bytes().to_vec())
        .collect();
    if pages.is_empty() {
        return Err(EvalError::NoGoldPages(gold.to_path_buf()));
    }
    let mut stream = Stream(seed | 1);
    let url = url::Url::parse("http://forum.test/viewtopic.php?t=1")?;
    let context = DateContext::new(jiff::Timestamp::from_second(1_609_459_200)?, Some(3600));
    let started = Instant::now();
    let mut counts = FuzzCounts::default();
    std::panic::set_hook(Box::new(|_| {}));
    while started.elapsed() < duration {
        let input = mangle(&mut stream, &pages);
        let outcome = std::panic::catch_unwind(|| {
            // Decoded once for both checks, as `analyse` decodes it.
            let page = decode_page_of(&input, None, &url);
            analyse_text(&page.text, page.encoding.name(), &url, &context);
            check_tokenizer(&page.text)
        });
        counts.inputs += 1;
        let inputs = counts.inputs;
        let failure = match outcome {
            Err(_) => format!("input {inputs} panicked"),
            Ok(TokenizerCheck::Agrees) => {
                counts.tokenizer_agreed += 1;
                continue;
            }
            Ok(TokenizerCheck::Refused(_)) => {
                counts.tokenizer_refused += 1;
                continue;
            }
            Ok(TokenizerCheck::Differs(difference)) => {
                format!("on input {inputs} the tokenizers disagree ({difference})")
            }
        };
        let _ = std::panic::take_hook();
        std::fs::create_dir_all(crashes).map_err(|source| EvalError::File {
            action: "create",
            path: crashes.to_path_buf(),
            source,
        })?;
        let path: PathBuf = crashes.join(format!("failure-{seed}-{inputs}.html"));
        std::fs::write(&path, &input).map_err(|source| EvalError::File {
            action: "save",
            path: path.clone(),
            source,
        })?;
        return Err(EvalError::FuzzFailure {
            failure,
            saved: path,
        });
    }
    let _ = std::panic::take_hook();
    Ok(counts)
}
