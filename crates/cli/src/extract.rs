//! `trawl extract FILE.html`: the posts (or all records) of a saved page, as JSON lines.

use std::io::Write;
use std::path::PathBuf;

use anyhow::{Context, Result, bail};
use clap::Args;
use trawl_page::analysis::{analyse, analyse_text};
use trawl_page::time::{DateContext, ParsedTime, Precision};

use crate::time::parse_instant;

#[derive(Debug, Args)]
pub struct ExtractArgs {
    /// The saved page.
    pub file: PathBuf,
    /// The URL the page was fetched from (resolves links; its domain helps guess the charset).
    #[arg(long)]
    pub url: Option<String>,
    /// When the page was fetched, for relative dates ("3 hours ago"); defaults to the file's
    /// modification time. `end` is not accepted here: give a date or an RFC 3339 instant.
    #[arg(long)]
    pub fetched_at: Option<String>,
    /// The forum's offset from UTC, like +08:00, when known: relative dates are resolved on its
    /// clock, and times are printed with it. Without it, the offset the page states ("All times
    /// are GMT +2") or shows (a clock of the current time) is used, when it gives one.
    // A western offset starts with a minus sign and must not be taken for an option.
    #[arg(long, allow_hyphen_values = true)]
    pub utc_offset: Option<String>,
    /// Read the page in this charset (a label such as utf-8, windows-1252, gbk, shift_jis),
    /// whatever it declares: a page a browser saved keeps the `<meta>` of the charset it was
    /// served in, though the browser wrote it in UTF-8. Without it the charset is chosen as for a
    /// fetched page (byte order mark, `<meta>`, then a guess from the bytes).
    #[arg(long, value_name = "NAME")]
    pub charset: Option<String>,
    /// Print every record of every repetitive region with its pattern id, for inspection.
    #[arg(long)]
    pub records: bool,
}

pub fn run(args: ExtractArgs) -> Result<()> {
    let bytes = std::fs::read(&args.file).with_context(|| {
        format!(
            "cannot read {}; give the path of a saved HTML page",
            args.file.display()
        )
    })?;
    let url = match &args.url {
        Some(url) => {
            url::Url::parse(url).with_context(|| format!("{url:?} is not an absolute URL"))?
        }
        None => {
            let absolute = std::fs::canonicalize(&args.file)?;
            url::Url::from_file_path(&absolute)
                .map_err(|()| anyhow::anyhow!("cannot make a URL of {}", absolute.display()))?
        }
    };
    let fetched_at = match &args.fetched_at {
        Some(text) => parse_instant(text, i64::MIN).and_then(|instant| {
            if text == "end" {
                bail!("--fetched-at needs a date or an instant");
            }
            Ok(instant)
        })?,
        None => {
            let modified = std::fs::metadata(&args.file)?.modified()?;
            jiff::Timestamp::try_from(modified)
                .context("the file's modification time is out of range")?
        }
    };
    let offset = match &args.utc_offset {
        Some(text) => Some(parse_offset(text)?),
        None => None,
    };
    let context = DateContext::new(fetched_at, offset);
    let analysis = match &args.charset {
        Some(label) => {
            let encoding =
                encoding_rs::Encoding::for_label(label.trim().as_bytes()).with_context(|| {
                    format!(
                        "--charset {label:?} names no charset; give a label such as utf-8, \
                         windows-1252, iso-8859-1, gbk, big5 or shift_jis"
                    )
                })?;
            let (text, _) = encoding.decode_with_bom_removal(&bytes);
            analyse_text(&text, encoding.name(), &url, &context)
        }
        None => analyse(&bytes, None, &url, &context),
    };
    // Written through a buffer and with errors returned, not `println!`: a closed pipe (the
    // output piped into `head`) must end the command quietly, and `println!` panics on it.
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    if args.records {
        for (index, region) in analysis.regions.iter().enumerate() {
            for record in 0..region.records.len() {
                let text: String = region
                    .record_nodes(&analysis.document, record)
                    .iter()
                    .map(|&node| analysis.document.text_content(node))
                    .collect::<Vec<_>>()
                    .join(" ");
                let line = serde_json::json!({
                    "region": index,
                    "pattern": format!("{:016x}", region.pattern),
                    "record": record,
                    "text_share": region.text_share,
                    "text": text.chars().take(200).collect::<String>(),
                });
                writeln!(out, "{line}")?;
            }
        }
        out.flush()?;
        return Ok(());
    }
    for post in &analysis.posts {
        let line = serde_json::json!({
            "author": post.author,
            // The page writes profile links as it likes (relative, `./memberlist.php?...`); a
            // reader of the output needs addresses that work outside the page.
            "author_url": post.author_url.as_deref().map(|href| absolute_link(&url, href)),
            "time": post
                .time
                .map(|time| time_with_forum_offset(&time, analysis.date_context.utc_offset_seconds)),
            "text": post.text,
            "permalink": post.permalink,
        });
        writeln!(out, "{line}")?;
    }
    out.flush()?;
    Ok(())
}

/// `href` resolved against the page's address; a link that resolves to nothing is kept as
/// written rather than dropped.
fn absolute_link(page: &url::Url, href: &str) -> String {
    page.join(href.trim())
        .map(String::from)
        .unwrap_or_else(|_| href.to_string())
}

/// A post's time in ISO 8601 with the forum's offset from UTC when it is known (given with
/// `--utc-offset`, or stated or shown by the page) and the time itself names none: a reader of
/// the output can then place the post on the time line, which a bare wall-clock time does not
/// allow. Dates without a clock time stay bare, as an offset means nothing for a whole day.
fn time_with_forum_offset(time: &ParsedTime, forum_offset_seconds: Option<i32>) -> String {
    let text = time.to_iso8601();
    match forum_offset_seconds {
        Some(offset)
            if time.explicit_offset_seconds.is_none() && time.precision >= Precision::Minute =>
        {
            let sign = if offset < 0 { '-' } else { '+' };
            let magnitude = offset.unsigned_abs();
            format!(
                "{text}{sign}{:02}:{:02}",
                magnitude / 3600,
                magnitude % 3600 / 60
            )
        }
        _ => text,
    }
}

fn parse_offset(text: &str) -> Result<i32> {
    let (sign, rest) = match text.as_bytes().first() {
        Some(b'+') => (1, &text[1..]),
        Some(b'-') => (-1, &text[1..]),
        _ => bail!("write the UTC offset as +HH:MM or -HH:MM, like +08:00"),
    };
    let (hours, minutes) = rest.split_once(':').unwrap_or((rest, "0"));
    let hours: i32 = hours
        .parse()
        .context("write the UTC offset as +HH:MM, like +08:00")?;
    let minutes: i32 = minutes
        .parse()
        .context("write the UTC offset as +HH:MM, like +08:00")?;
    if hours > 14 || minutes >= 60 {
        bail!("{text} is not a UTC offset (they range from -12:00 to +14:00)");
    }
    Ok(sign * (hours * 3600 + minutes * 60))
}
