//! The ground floor every other trawl crate stands on.
//!
//! Two seams live here, and both exist so that the same crawler and scheduler code can run against
//! a live forum, against a simulated forum served over loopback HTTP, and through a simulated year
//! in seconds:
//!
//! - [`Clock`] is the only way any trawl component learns what time it is. [`SystemClock`] reads the
//!   wall clock, [`FixedClock`] never moves, [`ManualClock`] moves only when told to (simulations
//!   step it), and [`AcceleratedClock`] runs a simulated clock faster than real time from a chosen
//!   origin. Nothing else in the workspace reads `std::time::SystemTime`.
//! - [`Fetcher`] turns one [`FetchRequest`] into one [`FetchResponse`]. A request carries the
//!   instant it is asked at ([`FetchRequest::at`]); a fetcher answers with the resource *as of that
//!   instant*. For the HTTP fetcher that instant is simply "now" on its clock; the simulator's
//!   in-process fetcher renders the forum as it stood at that instant, which is what lets a year of
//!   revisits run without waiting a year.
//!
//! A fetcher performs exactly one exchange: it does not follow redirects. A redirect comes back as
//! a response with a 3xx status and a `Location` header, so that the crawler sees every hop, can
//! apply its URL rules to the target, and can record that the source URL is an alias. The
//! alternative, following redirects inside the fetcher, hides redirect loops and login redirects
//! (`/login?next=...`) from the code that has to learn to avoid them.
//!
//! [`CookieJarFetcher`] wraps any fetcher with a session cookie jar, so the HTTP fetcher and the
//! in-process simulator see the same URLs a browser would (no session ids once a cookie is back).
//!
//! [`escape_html`] is here too, the one HTML escaping of every page and picture trawl writes
//! (the web console, the benchmarks' reports, the plan graph), since every crate that writes
//! HTML stands on this one.
//!
//! Times are [`jiff::Timestamp`] values (re-exported as [`Timestamp`]): an absolute instant with
//! nanosecond precision and no time zone, which is what the clock and the fetch log need. Civil
//! times with zones appear only where pages are rendered or parsed.

mod clock;
mod cookies;
mod fetch;
mod html;

pub use clock::{
    AcceleratedClock, Clock, FixedClock, ManualClock, SharedAcceleratedClock, SystemClock,
};
pub use cookies::{CookieJarFetcher, cookies_set_by};
pub use fetch::{FetchError, FetchRequest, FetchResponse, Fetcher, Header};
pub use html::escape_html;
pub use jiff::Timestamp;
