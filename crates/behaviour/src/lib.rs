//! Learning from how people browse a forum: browse logs in, URL patterns with a value for each of
//! two crawling goals out. Pure: no network, no disk, no clock, no async runtime; the caller
//! reads the files and hands over their text.
//!
//! This is the method of *User Browsing Behavior-driven Web Crawling* (our copy in
//! `../shared/papers` is partial: it stops in section 3.1, in the middle of the sentence that
//! names the split criterion). What the copy states we follow; what it does not, we designed,
//! and each such place says so below.
//!
//! # Logs ([`log`])
//!
//! A browse record is the paper's triple (target URL, referrer URL, anonymous user). We read it
//! from TSV (`target<TAB>referrer<TAB>user`), JSON lines (`{"target", "referrer", "user"}`) and,
//! because that is what a forum owner actually has, the Apache/nginx combined log: the target is
//! the request's path, the referrer the quoted referrer field, and the user the client address
//! and user agent hashed together (FNV-1a, stable across machines). Server lines that are no page
//! view (another method than GET/HEAD, an answer other than 2xx or 304, a style sheet, script,
//! image or font) are counted apart. Every line is read alone, in whichever form it is written;
//! a line no form reads is counted as malformed with its reason, never fatal. The site's host is
//! the one most absolute URLs in the log name; a referrer on another host (a search engine) is an
//! entry into the site, like no referrer at all. Duplicates, the same user making the same
//! transition again, are removed, as the paper does, so that one enthusiastic reader does not
//! outweigh many.
//!
//! # Measures ([`frequencies`])
//!
//! F_in(u), F_out(u) and F_trans(u, v) exactly as the paper defines them, over the deduplicated
//! records. We also keep per URL its entries (visits without a referrer on the site) and the
//! record that first named it, for the discovery ranking.
//!
//! # The pattern tree ([`tree`])
//!
//! A URL is decomposed into key-value pairs: path segments by position (`/[0]`, `/[1]`, …) and
//! query parameters by name (`?t`); a key a URL lacks has the value "absent". Engines with
//! rewritten URLs spell a whole page in one segment (`thread-123-2-1.html`, `forum-2-1.html`),
//! which as one key is an identifier and nothing else; so a path position whose values are
//! mostly built from a few templates around numbers (at least 8 such values, half of the
//! position's, at most 16 templates and at most the square root of the values; a slug is
//! every time a template of its own) is also split into its runs of letters and of digits,
//! each a key of its own (`/[0].0` is `thread`, `/[0].1` the thread's id), our design too. The tree is built
//! top down from a root holding every URL of the log, as the paper does after the pattern-tree
//! work it cites. The rest of this section is our design.
//!
//! *Parts of a key.* A key's values cut a node's URLs into parts. A key whose distinct values are
//! few (at most 16 and at most the square root of the node's URLs) names kinds of pages (the
//! script, a section, a page number): each value is a part. Otherwise the key names items
//! (thread ids, slugs, session ids) and only values that at least 5 % of the URLs share are
//! parts of their own; the rest are pooled into one part, a wildcard (`{n}` when all are
//! numbers, `{*}` otherwise). Absence is always a part of its own.
//!
//! *Which key.* The copy breaks off exactly where the paper names its criterion, so we chose
//! one: C4.5's rule with the URL's *shape* as the class. A URL's shape is the set of keys it
//! has (which path positions, which query parameters); the gain of a key is what its parts
//! tell about the URL's *other* keys. A key naming the kind of page (the script, the section)
//! tells which parameters follow (`t` and perhaps `start` after `viewtopic.php`, `u` after a
//! profile's script), while an optional decoration (a page offset, a session id) tells little
//! beyond its own presence, which is why the key itself is left out of the class. Of the keys
//! that cut the node into at least two parts, those with at least the average gain compete,
//! and the one with the highest gain ratio (gain over the entropy of its parts) wins: the
//! ratio keeps a key with many parts from winning by its number of parts, the average-gain
//! floor keeps a key that peels off one small kind from winning by a ratio near one. When no
//! key tells anything (all URLs of the node have the same keys, as in slug-only sites), the
//! key whose parts have the highest entropy wins: the one question that tells most URLs apart.
//! Pooling identifiers first is what makes both safe: a thread id is at most two parts
//! (absent, any number), so it never fragments the tree into one node per thread. We tried
//! plain part entropy first; on a phpBB-like log it split on the page offset before the
//! script name, and the offset `start=50` mixed board and thread pages.
//!
//! *Merging where behaviour agrees.* The paper merges children into their parent when their
//! user behaviour is consistent. We decide it at the split: each part gets a behaviour vector
//! (share of its URLs that were ever a referrer, F_in and F_out per URL on a log2 scale, share
//! of its visits that entered the site) and parts whose vectors differ by at most 0.25 in the
//! shares and 1.0 (a factor of two) in the rates are joined, most evidence first. Parts with
//! too little evidence to judge (fewer than 8 records in and out) join the part nearest in
//! behaviour. When everything joins one part, the key is *generalised* at the node (users do not
//! tell its values apart) and the next key is tried; otherwise each joined group becomes a child
//! whose pattern admits its values. A key generalised at a node is tried again below the split
//! that follows, and a key split into groups of several values is tried again within a group:
//! `viewtopic.php` and a profile's `memberlist.php` may be read alike on the whole yet apart
//! once later thread pages are split off. Deciding at the split rather than merging a finished
//! tree bottom up gives the same tree for the parts that agree, and lets the keys below a
//! merged split be split on the union, where they have more evidence.
//!
//! *Unseen URLs.* [`PatternTree::classify`] walks down: at each split it takes the child naming
//! the URL's value, else the child whose wildcard takes it (an unseen value with digits goes
//! where most literal values of its form went, so page 40 of a thread finds the later-pages
//! pattern even if no user read that far), else it stops at the node reached.
//! [`PatternTree::matching_leaf`] is stricter, and is what scores a URL: the URL must reach a
//! leaf and have no key the leaf's URLs lack. A URL of a kind no user visited (a script no
//! split names, a board list sorted by a key no user clicked) matches no pattern and has
//! priority zero: users tell nothing about it, so it waits behind every URL of a pattern they
//! value. We added this after the first measured crawl, where URLs with keys no user had used
//! (sort options and other views) took the score of the pattern they fell in, and the ordered
//! crawl of a small phpBB-like forum fetched 17 valuable pages in a 333-fetch budget against
//! breadth-first's 119 (266 with this rule).
//!
//! *Forms of values.* A key no split named (because users read its values alike, or because
//! nothing split on it) took any value, so a leaf learned from users who only opened a list's
//! `threads.html` … `threads4.html` also took `date3.html`, the same list in another order,
//! and the thread pattern `/topic/{n}/{*}` took `/topic/2317.rss`, the thread's feed, a key
//! short. Each leaf keeps, for every key whose values show few *forms* (the value with each run
//! of digits read as `{n}`: at most 16 forms and at most the square root of the distinct
//! values), those forms ([`tree::KeyForms`]); a URL with a value of another form under such a
//! key matches no leaf. Thread ids (one form, `{n}`) and page names (`threads{n}.html`) close
//! their key; slugs and names, each a form of its own, leave it open, so a new thread or member
//! still finds its pattern. Measured on the simulator (2026-11-28), the copies of the archive's
//! index in four other orders were 500 of the first 4,569 fetches of its ordered crawl, and
//! NodeBB's feeds 4,014 of 5,112.
//!
//! # The behaviour graph and the rankings ([`ranking`]); our design
//!
//! The graph's vertices are the patterns URLs fall in and its arcs sum F_trans between them.
//! *Comprehensive fetch*: a crawler that wants the pages users value, early, should fetch URLs of
//! the patterns where users spend their attention. We take the stationary distribution of a user
//! who follows the graph's arcs in proportion to their counts (with probability 0.85) or enters
//! the site afresh where the log's users entered it, and score a pattern by its attention per
//! URL, since a crawler spends its budget one URL at a time. *Timely discovery*: a URL first
//! named after the first quarter of the log is a new page; the pattern of the page from which a
//! user first reached it gets the credit, and patterns are scored by new pages found per URL:
//! the pages to revisit to see new ones first (a board's first page, a "new posts" list).
//! Both scores are also given to inner nodes from their subtrees, for URLs that stop there.
//!
//! # Ordering a crawl; our design
//!
//! `trawl crawl --order behaviour` orders its frontier by [`PatternModel::crawl_rank`]: a URL's
//! pattern and comprehensive-fetch score, the score multiplied by [`FOLLOW_PROBABILITY`] for
//! each link of a *chain*, the links followed in a row from pages of the URL's own pattern to
//! reach it ([`PatternModel::crawl_priority`]; the frontier keeps the chains). A pattern's
//! score is per URL, and a crawler meets a pattern's URLs one link at a time: a list users
//! paged through to page 4, scored above the messages, is a chain whose every page names the
//! next, and by score alone the crawl walks down it as long as it goes. The simulator's search
//! results (the `endless` trap of the mailarchive and nodebb families) go on for ever; ordered
//! by score alone, 120 of the archive's first 4,569 fetches were search pages, where
//! breadth-first fetched one (and breadth-first fetches 98 % valuable pages there). With the
//! factor, the share of attention a user following links keeps at each link in the attention
//! model, a pattern scored r times another runs ahead of it by at most log(r) / log(1 / 0.85)
//! links of its own (about 14 for 10 times, 28 for 100 times), as breadth-first lets every
//! chain advance one link per level. Only chains are discounted, not depth: a thread listed on
//! a board's 40th page is 40 links from the portal, all of them board pages, and discounted by
//! depth it ranked below members' profiles found near the portal (phpbb, 2026-11-28: 1,012
//! profiles among the budget's 5,625 fetches, against 28 without the discount).
//!
//! # Young URLs; our design
//!
//! Many forums file pages under a value that keeps changing: a month folder
//! (`/archives/list/2025-12/msg00421.html`), a page number that grows, new ids under a key whose
//! values are few enough to be kinds. A log is a window of time, and a value that appeared near
//! its end has had only a few days of visits. Counted per URL over the whole log, the newest
//! month looked as little read as the oldest: on the simulated mailing-list archive its messages
//! were joined with them or ranked last of all patterns, and since the next month's new messages
//! fall under that month (or one never seen, which went with the form's most common value, an
//! old month), patterns learned from one month ranked the next month's new pages backwards
//! (Spearman's rho -0.556, against 0.406 on the month learned from).
//!
//! *Exposure* ([`ranking::exposure`]): a pattern, or a part of a split, that users first met
//! after the log's first quarter and that has at least 8 records is taken as known only from
//! its first record to the end (at least 1/32 of the log), and its visits per URL are divided by
//! that share, both in the agreement test's behaviour vector and in the comprehensive-fetch
//! score. The records carry no clock, but a log is in time order, so a record's position is
//! its time. A kind of page met in the first quarter counts as known the whole log: the first
//! visit to a rarely read kind (the fifth page of long threads) comes late even when its pages
//! existed all along, and with a few records it comes in the first quarter mostly, where a kind
//! that did not yet exist cannot. The discovery score is not divided: its credit goes to the
//! page a new page was first reached from, and revisiting every page of a young pattern more
//! often costs a re-crawl budget we did not measure the change on.
//!
//! *Values newer than any seen* ([`ValueSet::newest`]): for each form of a split key's literals
//! with digits (`{n}-{n}`, `page-{n}`), the greatest value (digit runs read as numbers) is the
//! newest when users first met it after the first quarter; an unseen value of that form greater
//! than it goes with it, where before it went with the form's most common values. Where a
//! wildcard takes the value (ids pooled as rare), the wildcard still wins: a new thread id is
//! one more of the pool.
//!
//! We considered the other way, pooling a key's values when new ones keep appearing (a key
//! whose values at the end of the log differ from those at the start taken as open, its values
//! one wildcard). It fixes the unseen month but throws away what users do tell apart: the newest
//! month is read far more per day than the oldest, and a page-number key churns too, where
//! page 1 and the later pages must stay apart. Measuring per share of the log keeps every
//! distinction users make and corrects the measure; sending newer values to the newest keeps
//! the one distinction that matters for pages not yet seen, their age.
//!
//! *Temporal reliability* ([`reliability`]): patterns learned from one month score the next
//! month's URLs, and Spearman's rank correlation with how often users visited them says how
//! well the patterns rank pages they never saw.
//!
//! [`PatternModel`] holds tree, graph, rankings and the log report, serialises as the
//! `patterns.json` the CLI writes, and answers [`PatternModel::priority`] for any URL.

pub mod frequencies;
pub mod log;
pub mod ranking;
pub mod reliability;
pub mod tree;
pub mod url_parts;

use serde::{Deserialize, Serialize};

pub use frequencies::Frequencies;
pub use log::{BrowseLog, LogReader, LogReport, MalformedReason, Transition, read_logs};
pub use ranking::{BehaviourGraph, FOLLOW_PROBABILITY, Goal, PatternEdge, PatternScores};
pub use tree::{KeyForms, NodeFigures, PatternNode, PatternTree, TreeSettings, ValueSet, Wildcard};
pub use url_parts::{DecomposedUrl, Key, path_and_query_of};

/// The format name a patterns file carries; a file of another format is refused.
pub const PATTERNS_FORMAT: &str = "trawl-patterns/1";

/// Why a patterns file could not be used.
#[derive(Debug, thiserror::Error)]
pub enum PatternsError {
    /// Not JSON of the expected shape.
    #[error("not a patterns file")]
    Parse(#[source] serde_json::Error),
    /// Another format version.
    #[error("patterns file of format {found:?}, expected {PATTERNS_FORMAT:?}")]
    Format {
        /// The format the file names.
        found: String,
    },
}

/// One pattern in a ranking.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RankedPattern {
    /// Node id in the tree.
    pub node: usize,
    /// The pattern as text.
    pub pattern: String,
    /// Its score for the ranking's goal.
    pub score: f64,
}

/// Everything learned from one site's logs.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PatternModel {
    /// [`PATTERNS_FORMAT`].
    pub format: String,
    /// What reading the logs found.
    pub report: LogReport,
    /// Users in the logs.
    pub users: usize,
    /// Deduplicated transitions the model was learned from.
    pub transitions: usize,
    /// The pattern tree.
    pub tree: PatternTree,
    /// The behaviour graph with every node's scores.
    pub graph: BehaviourGraph,
    /// Leaves by comprehensive-fetch score, best first.
    pub fetch_ranking: Vec<RankedPattern>,
    /// Leaves by discovery score, best first.
    pub discovery_ranking: Vec<RankedPattern>,
}

impl PatternModel {
    /// Learns the model from deduplicated browse records.
    pub fn learn(log: &BrowseLog, settings: TreeSettings) -> PatternModel {
        let frequencies = Frequencies::of(log);
        let tree = PatternTree::build(&frequencies, settings);
        let graph = BehaviourGraph::build(&tree, &frequencies);
        let ranking = |score: fn(&PatternScores) -> f64| {
            let mut ranked: Vec<RankedPattern> = tree
                .leaves()
                .map(|node| RankedPattern {
                    node: node.id,
                    pattern: node.pattern.clone(),
                    score: score(&graph.scores[node.id]),
                })
                .collect();
            ranked.sort_by(|a, b| b.score.total_cmp(&a.score).then(a.node.cmp(&b.node)));
            ranked
        };
        let fetch_ranking = ranking(|scores| scores.fetch);
        let discovery_ranking = ranking(|scores| scores.discovery);
        PatternModel {
            format: PATTERNS_FORMAT.to_string(),
            report: log.report.clone(),
            users: log.users,
            transitions: log.transitions.len(),
            tree,
            graph,
            fetch_ranking,
            discovery_ranking,
        }
    }

    /// Reads a patterns file's text, refusing another format.
    pub fn from_json(text: &str) -> Result<PatternModel, PatternsError> {
        let model: PatternModel = serde_json::from_str(text).map_err(PatternsError::Parse)?;
        if model.format != PATTERNS_FORMAT {
            return Err(PatternsError::Format {
                found: model.format,
            });
        }
        Ok(model)
    }

    /// The leaf pattern `url` (absolute, or a path and query) belongs to, `None` for a URL of
    /// a kind no user visited.
    pub fn pattern_of(&self, url: &str) -> Option<&PatternNode> {
        self.tree
            .matching_leaf(url)
            .map(|leaf| &self.tree.nodes[leaf])
    }

    /// The value of fetching `url` for `goal`: its pattern's score, for URLs never seen too;
    /// zero for a URL of a kind no user visited, so that it waits behind every URL of a
    /// pattern users value.
    pub fn priority(&self, url: &str, goal: Goal) -> f64 {
        let Some(leaf) = self.tree.matching_leaf(url) else {
            return 0.0;
        };
        let scores = &self.graph.scores[leaf];
        match goal {
            Goal::Fetch => scores.fetch,
            Goal::Discovery => scores.discovery,
        }
    }

    /// The pattern `url` belongs to (a leaf's id, `None` for a URL of a kind no user visited)
    /// and its comprehensive-fetch priority: what a crawl's frontier orders by, the priority
    /// multiplied by [`FOLLOW_PROBABILITY`] for each link of a chain of the pattern's pages
    /// (see "Ordering a crawl" in the crate essay).
    pub fn crawl_rank(&self, url: &str) -> (Option<usize>, f64) {
        match self.tree.matching_leaf(url) {
            Some(leaf) => (Some(leaf), self.graph.scores[leaf].fetch),
            None => (None, 0.0),
        }
    }

    /// The value of fetching `url` first in a crawl that reached it by `chain` links in a row
    /// from pages of its own pattern: its comprehensive-fetch priority times
    /// [`FOLLOW_PROBABILITY`] once per link.
    pub fn crawl_priority(&self, url: &str, chain: u32) -> f64 {
        let chain = i32::try_from(chain).unwrap_or(i32::MAX);
        self.crawl_rank(url).1 * FOLLOW_PROBABILITY.powi(chain)
    }
}
