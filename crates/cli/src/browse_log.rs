//! `trawl sim browse-log`: the combined-format log a simulated forum's server would keep of its
//! human visitors, for learning URL patterns from (`trawl patterns`).

use std::io::{BufWriter, Write};

use anyhow::{Result, bail};
use clap::Args;
use trawl_sim::browse::{BrowseLogConfig, browse_log};

use crate::sim::SiteArgs;
use crate::time::parse_instant;

#[derive(Debug, Args)]
pub struct BrowseLogArgs {
    #[command(flatten)]
    pub site: SiteArgs,
    /// Number of distinct visitors.
    #[arg(long, default_value_t = 200)]
    pub users: u32,
    /// Number of days logged.
    #[arg(long, default_value_t = 30)]
    pub days: u32,
    /// First day logged (a date like 2025-06-01 or an instant); by default the last --days
    /// days of the forum's history.
    #[arg(long)]
    pub from: Option<String>,
    /// Scheme and host the referrers name.
    #[arg(long, default_value = "http://forum.test")]
    pub origin: String,
}

pub fn run(args: BrowseLogArgs) -> Result<()> {
    let site = args.site.build()?;
    let history = site.history();
    let mut config = BrowseLogConfig::last_days(&site, args.site.seed, args.users, args.days);
    config.origin = args.origin.trim_end_matches('/').to_string();
    if let Some(from) = &args.from {
        config.from = parse_instant(from, history.end)?.as_second();
    }
    if config.from < history.start || config.from >= history.end {
        bail!(
            "--from is outside the forum's history ({} to {}); try a later date or a larger --scale",
            jiff::Timestamp::from_second(history.start)?,
            jiff::Timestamp::from_second(history.end)?
        );
    }
    let stdout = std::io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    for request in browse_log(&site, &config) {
        writeln!(out, "{}", request.line)?;
    }
    out.flush()?;
    Ok(())
}
