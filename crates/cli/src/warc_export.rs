//! `trawl export --warc FILE`: every stored response as a WARC 1.1 request/response pair.
//!
//! The file is written beside its final name and renamed into place when complete, so a reader
//! never sees a half-written archive under the name asked for, and an export interrupted by a
//! full disk leaves the previous file (if any) intact.

use std::io::BufWriter;
use std::path::Path;

use anyhow::{Context, Result};
use trawl_model::{FetchRequest, FetchResponse};
use trawl_store::Store;
use trawl_warc::{RecordOptions, WarcWriter, Warcinfo};

/// Writes the store's responses to `path`; returns how many were written. Fetches that got no
/// response (refused connections, timeouts) have nothing to archive and are left out.
pub fn write_warc(store: &Store, path: &Path) -> Result<usize> {
    let settings = store
        .settings()?
        .with_context(|| format!("{} holds no crawl yet; nothing to export", store.location()))?;
    let file_name = path
        .file_name()
        .map(|name| name.to_string_lossy().into_owned())
        .unwrap_or_else(|| "crawl.warc.gz".to_string());
    let partial = path.with_file_name(format!("{file_name}.partial"));
    let file = std::fs::File::create(&partial)
        .with_context(|| format!("cannot create {}", partial.display()))?;
    let mut writer = WarcWriter::new(BufWriter::new(file));
    // The crawl's start stands for the export's date, so exporting the same store twice gives
    // the same bytes.
    writer.write_warcinfo(&Warcinfo {
        date: settings.started_at,
        filename: Some(file_name),
        fields: vec![
            (
                "software".to_string(),
                format!("trawl/{}", env!("CARGO_PKG_VERSION")),
            ),
            ("format".to_string(), "WARC File Format 1.1".to_string()),
            (
                "conformsTo".to_string(),
                "http://iipc.github.io/warc-specifications/specifications/warc-format/warc-1.1/"
                    .to_string(),
            ),
            ("isPartOf".to_string(), settings.portal.clone()),
            (
                "description".to_string(),
                format!(
                    "forum crawl of {} ({} strategy)",
                    settings.portal, settings.strategy
                ),
            ),
        ],
    })?;
    let mut written = 0usize;
    let mut failure: Option<anyhow::Error> = None;
    store.for_each_page(true, |page| {
        if failure.is_some() || page.record.status == 0 {
            return;
        }
        let record = page.record;
        let request = FetchRequest::new(record.url.clone(), record.fetched_at)
            .with_header("User-Agent", trawl_fetch::USER_AGENT);
        let response = FetchResponse {
            url: record.url.clone(),
            status: record.status,
            headers: record.headers,
            body: record.body,
            fetched_at: record.fetched_at,
        };
        match writer.write_exchange(&request, &response, &RecordOptions::default()) {
            Ok(_) => written += 1,
            Err(error) => {
                failure = Some(
                    anyhow::Error::new(error)
                        .context(format!("cannot write the WARC records of {}", record.url)),
                )
            }
        }
    })?;
    if let Some(error) = failure {
        return Err(error);
    }
    let mut output = writer
        .finish()
        .with_context(|| format!("cannot finish {}", partial.display()))?;
    std::io::Write::flush(&mut output)
        .with_context(|| format!("cannot write {}", partial.display()))?;
    drop(output);
    std::fs::rename(&partial, path)
        .with_context(|| format!("cannot move {} to {}", partial.display(), path.display()))?;
    Ok(written)
}
