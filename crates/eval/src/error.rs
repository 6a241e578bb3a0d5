//! The one error type of the harness: each variant says what could not be done and, where the
//! user can do something about it, what.

use std::path::PathBuf;

/// Why a measurement could not be taken.
#[derive(Debug, thiserror::Error)]
pub enum EvalError {
    /// A file or directory the harness reads or writes.
    #[error("cannot {action} {path}: {source}")]
    File {
        action: &'static str,
        path: PathBuf,
        source: std::io::Error,
    },
    /// The gold directory cannot be listed.
    #[error(
        "cannot read the gold directory {path}; give --gold the folder of WEB-FORUM-52 pages \
         (NAME.json files with an \"html\" field): {source}"
    )]
    GoldDirectory {
        path: PathBuf,
        source: std::io::Error,
    },
    /// A gold page that is no JSON object of the gold set's form.
    #[error("{path} is not a gold page: {source}")]
    GoldPage {
        path: PathBuf,
        source: serde_json::Error,
    },
    /// A gold page without a URL whose own path makes none either.
    #[error("{0} gives no url and its path makes none")]
    GoldPageWithoutUrl(PathBuf),
    /// A gold directory holding no page at all.
    #[error("{0} holds no gold pages (NAME.json files with an \"html\" field)")]
    NoGoldPages(PathBuf),
    /// Predictions that cannot be written as JSON.
    #[error("cannot write predictions as JSON: {0}")]
    Json(#[from] serde_json::Error),
    /// A simulated instant out of the calendar's range.
    #[error("the simulated instant is out of range: {0}")]
    Time(#[from] jiff::Error),
    /// A URL the harness built that does not parse.
    #[error("the harness built a URL that does not parse: {0}")]
    Url(#[from] url::ParseError),
    /// A fetch from the simulator failed.
    #[error("a fetch from the simulated forum failed: {0}")]
    Fetch(#[from] trawl_model::FetchError),
    /// Sampling the simulated forum failed.
    #[error("sampling the simulated forum failed: {0}")]
    Sample(#[from] trawl_learn::sample::SampleError),
    /// The loopback benchmark server could not start, or a client of it failed.
    #[error("the benchmark server on loopback failed: {0}")]
    Server(String),
    /// The plotting library could not draw or write a figure.
    #[error("cannot draw {what}: {message}")]
    Plot { what: String, message: String },
    /// Fuzzing found an input that panics page analysis or splits the tokenizers; the input is
    /// saved for a regression test.
    #[error("{failure}; the input is saved to {saved}")]
    FuzzFailure { failure: String, saved: PathBuf },
}

/// The harness's results.
pub type Result<T, E = EvalError> = std::result::Result<T, E>;
