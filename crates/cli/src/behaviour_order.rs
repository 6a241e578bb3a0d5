//! `trawl crawl --order behaviour --patterns patterns.json`: the frontier ordered by the
//! comprehensive-fetch ranking `trawl patterns` learned from browse logs. The strategy (the
//! learned plan, or breadth-first) still decides which links are followed; the ranking decides
//! in what order the frontier hands them out.
//!
//! The order is part of the crawl, like its strategy (`trawl_run::CrawlOrder`): this module only
//! reads the options that ask for one.

use std::path::PathBuf;

use anyhow::{Context, Result, bail};
use clap::{Args, ValueEnum};
use trawl_behaviour::PatternModel;
use trawl_run::CrawlOrder;

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum OrderArg {
    /// First in, first out (the default for a new crawl).
    Queue,
    /// By the value users give each URL's pattern (needs --patterns).
    Behaviour,
}

#[derive(Debug, Args)]
pub struct OrderArgs {
    /// In what order the frontier hands out the URLs the strategy follows (a new crawl without
    /// it uses the queue). A resumed crawl keeps the order and patterns it began with; it needs
    /// neither option again, and refuses another order.
    #[arg(long, value_enum)]
    pub order: Option<OrderArg>,
    /// A patterns file written by `trawl patterns`, for --order behaviour.
    #[arg(long)]
    pub patterns: Option<PathBuf>,
}

impl OrderArgs {
    /// The order these options ask for, `None` when they name none (a resumed crawl then keeps
    /// its own). The patterns file is read and checked here, before any database is touched.
    pub fn asked(&self) -> Result<Option<CrawlOrder>> {
        match (self.order, &self.patterns) {
            (None, None) => Ok(None),
            (None | Some(OrderArg::Queue), Some(_)) => {
                bail!("--patterns orders nothing without --order behaviour")
            }
            (Some(OrderArg::Queue), None) => Ok(Some(CrawlOrder::Queue)),
            (Some(OrderArg::Behaviour), None) => {
                bail!("--order behaviour needs --patterns (written by `trawl patterns`)")
            }
            (Some(OrderArg::Behaviour), Some(path)) => {
                let text = std::fs::read_to_string(path)
                    .with_context(|| format!("cannot read the patterns file {}", path.display()))?;
                PatternModel::from_json(&text)
                    .with_context(|| format!("cannot use the patterns file {}", path.display()))?;
                Ok(Some(CrawlOrder::Behaviour {
                    patterns_json: text,
                }))
            }
        }
    }
}
