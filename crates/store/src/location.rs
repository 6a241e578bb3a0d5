//! Where a store lives, as `--db` names it: a file path, or a PostgreSQL URL.

use std::convert::Infallible;
use std::fmt;
use std::path::PathBuf;
use std::str::FromStr;

/// The database a command reads or writes: an embedded SQLite file, or a PostgreSQL database
/// that may hold many sites.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StoreLocation {
    /// A SQLite file; one crawl.
    File(PathBuf),
    /// A PostgreSQL connection URL (`postgres://` or `postgresql://`); any number of crawls,
    /// one per site.
    Postgres(String),
}

impl StoreLocation {
    /// Reads what `--db` was given: a text starting with `postgres://` or `postgresql://` is a
    /// PostgreSQL URL, anything else a file path. A file of that name would have to be given as
    /// `./postgres://...`, which no one writes by chance, so the two never collide. The URL
    /// itself is read when the store connects, whose error says what is wrong with it.
    pub fn parse(text: &str) -> StoreLocation {
        if is_postgres_url(text) {
            StoreLocation::Postgres(text.to_string())
        } else {
            StoreLocation::File(PathBuf::from(text))
        }
    }

    /// Whether a file store's file exists; a PostgreSQL location always answers true, as only
    /// connecting tells whether the database (and the site in it) is there.
    pub fn may_exist(&self) -> bool {
        match self {
            StoreLocation::File(path) => path.exists(),
            StoreLocation::Postgres(_) => true,
        }
    }
}

fn is_postgres_url(text: &str) -> bool {
    ["postgres://", "postgresql://"].iter().any(|scheme| {
        text.get(..scheme.len())
            .is_some_and(|start| start.eq_ignore_ascii_case(scheme))
    })
}

impl FromStr for StoreLocation {
    type Err = Infallible;

    fn from_str(text: &str) -> Result<StoreLocation, Infallible> {
        Ok(StoreLocation::parse(text))
    }
}

impl fmt::Display for StoreLocation {
    /// The path, or the URL with any password left out: locations are printed in progress lines
    /// and error messages, which end up in logs.
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StoreLocation::File(path) => write!(formatter, "{}", path.display()),
            StoreLocation::Postgres(url) => formatter.write_str(&without_password(url)),
        }
    }
}

/// `url` with the password of its `user:password@` part replaced by `***`.
pub(crate) fn without_password(url: &str) -> String {
    let Some((scheme, rest)) = url.split_once("://") else {
        return url.to_string();
    };
    let authority_end = rest.find(['/', '?']).unwrap_or(rest.len());
    let (authority, tail) = rest.split_at(authority_end);
    let Some((user_info, host)) = authority.rsplit_once('@') else {
        return url.to_string();
    };
    match user_info.split_once(':') {
        Some((user, _password)) => format!("{scheme}://{user}:***@{host}{tail}"),
        None => url.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(given: &str, expected: StoreLocation, shown: &str) {
        let location = StoreLocation::parse(given);
        assert_eq!(location, expected, "{given}");
        assert_eq!(location.to_string(), shown, "{given}");
    }

    #[test]
    fn db_arguments_name_a_file_or_a_postgres_database() {
        let file = |path: &str| StoreLocation::File(PathBuf::from(path));
        let postgres = |url: &str| StoreLocation::Postgres(url.to_string());
        check("forum.db", file("forum.db"), "forum.db");
        check(
            "/var/trawl/forum.db",
            file("/var/trawl/forum.db"),
            "/var/trawl/forum.db",
        );
        check("postgres.db", file("postgres.db"), "postgres.db");
        check("./postgres://x", file("./postgres://x"), "./postgres://x");
        check(
            "postgres://localhost/trawl",
            postgres("postgres://localhost/trawl"),
            "postgres://localhost/trawl",
        );
        check(
            "postgresql://archive@db.example:5433/forums",
            postgres("postgresql://archive@db.example:5433/forums"),
            "postgresql://archive@db.example:5433/forums",
        );
        check(
            "POSTGRES://archive:secret@db/forums?sslmode=disable",
            postgres("POSTGRES://archive:secret@db/forums?sslmode=disable"),
            "POSTGRES://archive:***@db/forums?sslmode=disable",
        );
        check(
            "postgres://archive:p@ss@db/forums",
            postgres("postgres://archive:p@ss@db/forums"),
            "postgres://archive:***@db/forums",
        );
    }
}
