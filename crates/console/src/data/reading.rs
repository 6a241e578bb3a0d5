//! Reading a big crawl without making the first view wait for it.
//!
//! The console keeps a site's pages ([`Cache::pages`]); reading them whole takes about 1.4 s a
//! hundred thousand pages, and that reading used to stand before the first view of a big
//! crawl. Now a crawl of more than [`READ_AT_ONCE_PAGES`] pages is read on a thread of its
//! own, its progress counted as it goes, and the views answer at once meanwhile: the overview
//! from the store's totals (or, for a store without them, with the page count the store gives
//! cheaply), the others saying how far the reading is and refreshing themselves until it is
//! done. A smaller crawl is read in the request, as
//! before: that costs less than the bar of 300 ms, and a view that can be shown whole at once
//! is better than one that asks to wait. Once a site's pages are held, later pages are read in
//! the request that finds them (a crawl adds a few at a time).

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use trawl_store::{Store, StoreError, StoreLocation};

use super::{Cache, LoadedPages, open_site};

/// Crawls of at most this many pages are read in the request that first needs them: reading
/// them takes about a seventh of a second (docs/BENCHMARKS.md, the web console).
pub const READ_AT_ONCE_PAGES: usize = 10_000;

/// A site's pages as a view can have them now.
#[derive(Debug, Clone)]
pub enum PagesNow {
    /// Every page the store holds, read.
    Read(Arc<LoadedPages>),
    /// Being read on a thread of its own: `read` of `total` so far.
    Reading {
        /// Pages read.
        read: usize,
        /// Pages the store held when asked.
        total: usize,
    },
    /// The reading failed; the words say why (the next request tries again).
    Failed(String),
}

impl Cache {
    /// A cache that reads crawls of more than `pages` pages on a thread of their own (the
    /// console's is [`READ_AT_ONCE_PAGES`]; tests lower it to see the reading with a small
    /// crawl).
    pub fn reading_in_background_above(pages: usize) -> Cache {
        Cache {
            read_at_once: Some(pages),
            ..Cache::default()
        }
    }

    /// The site's pages, at once: read already (and caught up with the store), read here for a
    /// small crawl, or, for a big one never read, being read on a thread this starts.
    pub fn pages_now(
        self: &Arc<Self>,
        location: &StoreLocation,
        site: &str,
        store: &Store,
    ) -> Result<PagesNow, StoreError> {
        let held = self.pages.lock().expect("cache lock").contains_key(site);
        if held {
            return Ok(PagesNow::Read(self.pages(site, store)?));
        }
        if let Some(failure) = self.read_failures.lock().expect("cache lock").remove(site) {
            return Ok(PagesNow::Failed(failure));
        }
        let total = store.page_count()?;
        let mut reading = self.reading.lock().expect("cache lock");
        if let Some(progress) = reading.get(site) {
            return Ok(PagesNow::Reading {
                read: progress.load(Ordering::Relaxed),
                total,
            });
        }
        if total <= self.read_at_once.unwrap_or(READ_AT_ONCE_PAGES) {
            drop(reading);
            return Ok(PagesNow::Read(self.pages(site, store)?));
        }
        let progress = Arc::new(AtomicUsize::new(0));
        reading.insert(site.to_string(), Arc::clone(&progress));
        drop(reading);
        let cache = Arc::clone(self);
        let location = location.clone();
        let site_name = site.to_string();
        let spawned = std::thread::Builder::new()
            .name("trawl-console-read".to_string())
            .spawn(move || {
                let read = open_site(&location, &site_name, true)
                    .and_then(|store| cache.read_whole(&site_name, &store, Some(&progress)));
                cache.reading.lock().expect("cache lock").remove(&site_name);
                if let Err(error) = read {
                    cache
                        .read_failures
                        .lock()
                        .expect("cache lock")
                        .insert(site_name, crate::error_chain(&error));
                }
            });
        if let Err(error) = spawned {
            self.reading.lock().expect("cache lock").remove(site);
            return Ok(PagesNow::Failed(format!(
                "cannot start reading the crawl: {error}"
            )));
        }
        Ok(PagesNow::Reading { read: 0, total })
    }

    /// Reads every page of the site without holding the cache's lock, so views answer
    /// meanwhile, counting the pages read in `progress`; keeps them unless pages read since by
    /// another request are more.
    pub(super) fn read_whole(
        &self,
        site: &str,
        store: &Store,
        progress: Option<&AtomicUsize>,
    ) -> Result<Arc<LoadedPages>, StoreError> {
        let mut pages = Vec::with_capacity(store.page_count()?);
        store.for_each_page_after(0, false, |page| {
            pages.push(page);
            if let Some(progress) = progress {
                progress.fetch_add(1, Ordering::Relaxed);
            }
        })?;
        let loaded = Arc::new(LoadedPages::new(pages));
        let mut kept = self.pages.lock().expect("cache lock");
        if let Some(other) = kept.get(site)
            && other.count >= loaded.count
        {
            return Ok(Arc::clone(other));
        }
        // Threads made from pages of another store at the same place name other pages.
        self.threads.lock().expect("cache lock").remove(site);
        kept.insert(site.to_string(), Arc::clone(&loaded));
        Ok(loaded)
    }
}
