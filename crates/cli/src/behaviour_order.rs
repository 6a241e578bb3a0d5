//! `trawl crawl --order behaviour --patterns patterns.json`: the frontier ordered by the
//! comprehensive-fetch ranking `trawl patterns` learned from browse logs. The strategy (the
//! learned plan, or breadth-first) still decides which links are followed; the ranking decides
//! in what order the frontier hands them out.

use std::path::PathBuf;

use anyhow::{Context, Result, bail};
use clap::{Args, ValueEnum};
use trawl_behaviour::{Goal, PatternModel};
use trawl_crawl::FrontierPriority;

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum OrderArg {
    /// First in, first out.
    Queue,
    /// By the value users give each URL's pattern (needs --patterns).
    Behaviour,
}

#[derive(Debug, Args)]
pub struct OrderArgs {
    /// In what order the frontier hands out the URLs the strategy follows. Give the same
    /// order and patterns again when resuming a crawl.
    #[arg(long, value_enum, default_value_t = OrderArg::Queue)]
    pub order: OrderArg,
    /// A patterns file written by `trawl patterns`, for --order behaviour.
    #[arg(long)]
    pub patterns: Option<PathBuf>,
}

impl OrderArgs {
    /// The frontier priority these options ask for, `None` for the plain queue.
    pub fn priority(&self) -> Result<Option<FrontierPriority>> {
        match (self.order, &self.patterns) {
            (OrderArg::Queue, None) => Ok(None),
            (OrderArg::Queue, Some(_)) => {
                bail!("--patterns orders nothing without --order behaviour")
            }
            (OrderArg::Behaviour, None) => {
                bail!("--order behaviour needs --patterns (written by `trawl patterns`)")
            }
            (OrderArg::Behaviour, Some(path)) => Ok(Some(priority_from_file(path)?)),
        }
    }
}

/// The comprehensive-fetch priority of the patterns in `path`.
pub fn priority_from_file(path: &std::path::Path) -> Result<FrontierPriority> {
    let text = std::fs::read_to_string(path)
        .with_context(|| format!("cannot read the patterns file {}", path.display()))?;
    let model = PatternModel::from_json(&text)
        .with_context(|| format!("cannot use the patterns file {}", path.display()))?;
    Ok(priority_of(model))
}

/// The comprehensive-fetch priority of `model`.
pub fn priority_of(model: PatternModel) -> FrontierPriority {
    FrontierPriority::new(move |url: &str| model.priority(url, Goal::Fetch))
}
