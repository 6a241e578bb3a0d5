//! A lean reading of a list page, for a recrawl scheduler: what tells it when a list changed.
//!
//! A scheduler that keeps an archive fresh (issue 20's freshness replay, `trawl watch`) learns
//! from each page it fetches the times of the posts a thread page shows, the thread entries of a
//! board page (which thread, its last post's time, its reply count) and the pager in the page's
//! links. The full reading ([`PageStructure::read_records`]) also reads, for the archive, each
//! post's permalink, its anchor and its author's profile link, and each thread entry's starter;
//! nothing of those decides which records a page holds, so the lean reading leaves them out and
//! gives the same records with the same times. What does decide it is still read whole: a
//! post's author and text (the text column is chosen outside the author column, a record with
//! neither is no post, and a list whose texts are its threads' titles is not the post list),
//! and a thread entry's title link.

use url::Url;

use crate::analysis::{PageAnalysis, PageStructure, RecordsWanted};
use crate::links::Link;
use crate::records::ThreadEntry;
use crate::time::{DateContext, ParsedTime};

/// What a recrawl scheduler reads from one page (see the module's documentation).
#[derive(Debug, Clone)]
pub struct ListReading {
    /// The page URL links were resolved against.
    pub url: Url,
    /// Every followable link with its location: the pager is among them.
    pub links: Vec<Link>,
    /// The time of each post the page shows, in page order (`None` for a post shown without a
    /// readable time), exactly as [`PageStructure::read_records`] reads them.
    pub post_times: Vec<Option<ParsedTime>>,
    /// The page's thread entries as [`PageStructure::read_records`] reads them, with no starter
    /// (`author` is always `None`).
    pub thread_entries: Vec<ThreadEntry>,
    /// The context the page's dates were read in.
    pub date_context: DateContext,
}

impl PageStructure {
    /// Reads the records `wanted` as [`PageStructure::read_records`] does, keeping only what a
    /// recrawl scheduler uses (see [`ListReading`]).
    pub fn read_list(self, wanted: RecordsWanted) -> ListReading {
        let mut analysis = self.read_records_of(wanted, true);
        // The entry region's starter column is never chosen in a lean reading; a lone entry
        // read without a list (one record, rarely) still names its starter, which is dropped
        // so that every entry keeps the same fields.
        for entry in &mut analysis.thread_entries {
            entry.author = None;
        }
        ListReading::of(analysis)
    }
}

impl ListReading {
    /// What a recrawl scheduler uses of a whole analysis: the lean reading's fields, taken from
    /// [`PageStructure::read_records`] (to compare the two readings).
    pub fn of(analysis: PageAnalysis) -> ListReading {
        ListReading {
            post_times: analysis.posts.iter().map(|post| post.time).collect(),
            url: analysis.url,
            links: analysis.links,
            thread_entries: analysis.thread_entries,
            date_context: analysis.date_context,
        }
    }
}
