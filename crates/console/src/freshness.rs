//! What the freshness views read: the watch's snapshot of a site, made from the pages the
//! console has read already ([`crate::data::Cache`]) and the watch's state, and kept per site
//! with the page count it was made at, so a view asked again before the store moves costs
//! nothing and one asked after it reads no page from the store a second time.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use trawl_learn::plan::Plan;
use trawl_store::Store;
use trawl_watch::snapshot::{WatchSnapshot, snapshot_of_pages};

use crate::ConsoleError;
use crate::data::{LoadedPages, settings_of};

/// The name the watch keeps its state under in the store.
const WATCH_DOCUMENT: &str = "watch";

/// A snapshot made (`None`: the store holds no watch) and the page count it was made at.
type Made = (usize, Option<Arc<WatchSnapshot>>);

/// The snapshots last made, per site.
#[derive(Debug, Default)]
pub struct FreshnessCache {
    made: Mutex<HashMap<String, Made>>,
}

impl FreshnessCache {
    /// The snapshot of the watch that wrote `site`'s store, as its pages `loaded` stand;
    /// `None` when no watch keeping its state wrote it, or the crawl has no plan to watch by.
    pub fn snapshot(
        &self,
        site: &str,
        store: &Store,
        loaded: &LoadedPages,
    ) -> Result<Option<Arc<WatchSnapshot>>, ConsoleError> {
        if let Some((count, snapshot)) = self.made.lock().expect("cache lock").get(site)
            && *count == loaded.count
        {
            return Ok(snapshot.clone());
        }
        let made = make(store, loaded)?.map(Arc::new);
        self.made
            .lock()
            .expect("cache lock")
            .insert(site.to_string(), (loaded.count, made.clone()));
        Ok(made)
    }
}

fn make(store: &Store, loaded: &LoadedPages) -> Result<Option<WatchSnapshot>, ConsoleError> {
    let Some(state) = store
        .document(WATCH_DOCUMENT)
        .map_err(ConsoleError::Store)?
    else {
        return Ok(None);
    };
    let Some(plan_json) = settings_of(store)?.plan_json else {
        return Ok(None);
    };
    let plan = Plan::from_json(&plan_json).map_err(ConsoleError::Plan)?;
    let pages = loaded.pages.iter().map(|page| &page.record);
    Ok(snapshot_of_pages(pages, &state, &|url| plan.canonical(url)))
}
