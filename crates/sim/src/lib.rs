//! A seeded forum simulator: the workload every trawl component is measured against.
//!
//! The papers trawl implements were all evaluated on simulated or mirrored forums, because a
//! year of crawling cannot be repeated. This crate makes such forums on demand:
//!
//! - [`ForumHistory`] is a forum's whole history (boards, users, threads, posts with creation
//!   instants) generated from a seed at a [`Scale`]. It holds numbers only; names and texts are
//!   derived from the seed when a page is rendered, so the papers' 5.4M-post corpus fits in memory.
//! - A [`Family`] (see [`FamilyName`]) is an engine's URL syntax plus its templates: phpBB-,
//!   vBulletin-, Discuz!-, SMF-, XenForo- and Discourse-like engines, a hand-made table layout,
//!   the server-rendered view of a JavaScript-first forum (NodeBB-like), slug-only hierarchical
//!   URLs without ids, and a YaBB-like CGI forum whose posts span three table rows.
//!   Families spell [`Address`] values (a [`Route`] plus a spelling [`Variant`]) as URLs and render
//!   [`views::Page`] values as HTML; they decide nothing else. Behaviours only a few engines have
//!   (board lists paged by cursor, posts repeated across pages, links in post texts into
//!   members-only threads) are [`families::Quirks`] of a family's profile, decided with the
//!   rest of the truth in [`Site::judge`]. A site can spell its cursors as opaque tokens instead
//!   of numbers ([`Site::with_opaque_cursors`]), as engines that wrap a list position in a blob do.
//! - [`Traps`] switches the traps real forums set: duplicate URLs, session ids, login walls,
//!   shortcut and previous/next-thread links, endless calendars and searches, profiles, noisy dates,
//!   advertisements and signatures.
//! - [`Site`] ties a history, a family and traps together. [`Site::serve`] answers a request *as of
//!   an instant*; [`Site::judge`] gives the ground truth of an address (class, canonical URL, role,
//!   list and position), and the server consults the same verdict before rendering, so served pages
//!   and the truth agree by construction. [`truth`] exports that truth as JSON lines.
//! - A disguise ([`Site::with_disguise`]) serves the same forum under other names: every fixed
//!   word of the family's URLs (script names, path words, query keys) and every word of its
//!   `class` and `id` values renamed to tokens drawn from a seed, the same word to the same
//!   token across the site. Twelve families speak twelve fixed vocabularies, and a crawler's
//!   rule that leans on one of their words (`page` in a pager URL, `post` in a class) passes
//!   every benchmark and fails on an engine nobody here has seen; disguised, the same forums
//!   measure the crawler on words it was not written against. The renaming sits at the site's
//!   boundary only (pages and redirects out, URLs in, and the truth's URLs), so the disguised
//!   forum decides, judges and renders exactly as the undisguised one and their figures compare
//!   page for page.
//! - [`SimFetcher`] implements [`trawl_model::Fetcher`] in process, so crawls can run against a
//!   simulated forum with no socket at all; the `trawl-sim-server` crate serves the same site over
//!   HTTP.
//! - [`browse`] writes the combined-format log a forum's server would keep of human visitors.
//! - [`stats`] measures a history's shape (board rates, daily cycle, thread lifetimes) and
//!   [`corpus`] builds the papers' 18-forum corpus.

pub mod browse;
mod build;
pub mod corpus;
mod cursor_tokens;
pub mod dates;
mod disguise;
pub mod families;
mod fetcher;
mod history;
pub mod html;
mod judge;
mod questions;
mod random;
mod route;
mod site;
pub mod stats;
mod text;
mod traps;
pub mod truth;
pub mod views;

pub use families::{Charset, Family, FamilyName, FamilyProfile, Quirks};
pub use fetcher::SimFetcher;
pub use history::{
    Board, Category, ForumHistory, HISTORY_END_SECONDS, HOURLY_ACTIVITY, Post, Scale, Thread, User,
};
pub use judge::{Judgement, ListId, PageClass, Role, Served};
pub use route::{ActionKind, Address, AnswerOrder, Route, SortOrder, Variant};
pub use site::{SimResponse, Site, SiteConfig};
pub use text::{Language, slugify};
pub use traps::{Traps, UnknownTrap};
