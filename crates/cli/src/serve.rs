//! `trawl serve`: the web console over a crawl database (see `trawl_console`). This module only
//! reads the arguments, starts the console and prints where it listens.

use std::net::SocketAddr;

use anyhow::{Result, bail};
use clap::Args;
use trawl_console::{ConsoleError, ConsoleOptions};
use trawl_store::StoreLocation;

#[derive(Debug, Args)]
pub struct ServeArgs {
    /// The crawl database: a file, or a `postgres://` URL (one site or a fleet's many).
    #[arg(long)]
    pub db: StoreLocation,
    /// Where to listen. An address other than loopback serves only browsers showing the
    /// token, which is generated and printed unless --token gives one.
    #[arg(long, default_value = "127.0.0.1:8088")]
    pub addr: SocketAddr,
    /// The token every request must show (as `?token=` once, then a cookie, or as
    /// `Authorization: Bearer`); on loopback, giving one asks for it there too.
    #[arg(long)]
    pub token: Option<String>,
}

pub fn run(args: ServeArgs) -> Result<()> {
    if !args.db.may_exist() {
        bail!(
            "{} does not exist; crawl first with `trawl crawl URL --db {}`",
            args.db,
            args.db
        );
    }
    let console = match trawl_console::start(ConsoleOptions {
        location: args.db.clone(),
        address: args.addr,
        token: args.token,
    }) {
        Ok(console) => console,
        Err(error @ ConsoleError::Store(_)) if mentions_lock(&error) => {
            return Err(anyhow::Error::new(error).context(format!(
                "{} is locked by another program; stop it, or wait for it, and serve again",
                args.db
            )));
        }
        Err(error) => return Err(error.into()),
    };
    eprintln!(
        "serving the console of {} ({} site{}) at {}",
        args.db,
        console.sites().len(),
        if console.sites().len() == 1 { "" } else { "s" },
        console.url()
    );
    console.wait();
    Ok(())
}

/// Whether an error's causes say the database was locked (SQLite's "database is locked").
fn mentions_lock(error: &(dyn std::error::Error + 'static)) -> bool {
    let mut cause: Option<&(dyn std::error::Error + 'static)> = Some(error);
    while let Some(next) = cause {
        if next.to_string().contains("locked") {
            return true;
        }
        cause = next.source();
    }
    false
}
