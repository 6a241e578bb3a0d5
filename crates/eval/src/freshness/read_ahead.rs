//! Reading the page path's pages ahead on helper threads while the replay goes through a window.
//!
//! What a page shows depends on its list, its number and the instant it is fetched at alone, so
//! a page can be rendered and read before the replay's turn comes to it, as long as the instant
//! is known: a window's planned pages have theirs fixed by the plan (the clock only moves
//! forward, to each request's instant or the window's start), and the follow-ups a poll sets
//! off are due at the instant of the page that asked for them. The replay hands both to a
//! [`ReadAheadPool`]: helper threads read the follow-ups first (the replay needs them next),
//! then the plan in order, while the replay's own thread goes through the requests one by one,
//! reading itself a page nobody has taken yet and, while it waits for one a helper is reading,
//! another page of the pool. The scheduler still sees every page in the order it asked for
//! them, so the run is the same as on one thread; a page read for an instant the replay did not
//! keep (a policy that asked for a later instant moved the clock) is read again at the right
//! one.

use std::collections::{HashMap, VecDeque};
use std::sync::{Condvar, Mutex, MutexGuard};

use trawl_schedule::{FetchedPage, PageRequest};

use super::source::PageReader;

/// One page for the pool to read: its request and the instant it is expected at.
#[derive(Clone, Copy, Debug)]
struct Job {
    id: usize,
    request: PageRequest,
    at: i64,
}

#[derive(Debug, Default)]
struct PoolState {
    /// Pages nobody has started reading, in the order to read them: follow-ups first.
    pending: VecDeque<Job>,
    /// Pages read before their turn, by job, with the instant each was read at.
    read: HashMap<usize, (i64, FetchedPage)>,
    next_id: usize,
    /// The window is over: helpers stop.
    closed: bool,
    /// A helper stopped in a panic: the replay reads what it waits for itself.
    helper_failed: bool,
}

/// The pages of one window read ahead (see the module's documentation).
#[derive(Debug)]
pub(crate) struct ReadAheadPool<'a> {
    reader: &'a PageReader,
    state: Mutex<PoolState>,
    /// Signalled when a page was read, jobs were added, or the pool closed.
    changed: Condvar,
}

/// A page the replay took from the pool, and whether it had been read before its turn.
pub(crate) struct Taken {
    pub(crate) page: FetchedPage,
    pub(crate) read_ahead: bool,
}

impl<'a> ReadAheadPool<'a> {
    pub(crate) fn new(reader: &'a PageReader) -> Self {
        ReadAheadPool {
            reader,
            state: Mutex::new(PoolState::default()),
            changed: Condvar::new(),
        }
    }

    fn lock(&self) -> MutexGuard<'_, PoolState> {
        self.state
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Adds a window's plan, read in order after any follow-up; `now` is the replay's clock.
    /// Returns each request's job.
    pub(crate) fn add_plan(
        &self,
        plan: &[PageRequest],
        now: i64,
        window_start: i64,
    ) -> Vec<Option<usize>> {
        let mut state = self.lock();
        let jobs = jobs_of(&mut state, plan, now, window_start);
        state.pending.extend(jobs.iter().copied());
        self.changed.notify_all();
        jobs.iter().map(|job| Some(job.id)).collect()
    }

    /// Adds the follow-ups of a poll, read before everything else in the order the scheduler
    /// asked for them. Returns each request's job.
    pub(crate) fn add_follow_ups(
        &self,
        follow_ups: &[PageRequest],
        now: i64,
        window_start: i64,
    ) -> Vec<Option<usize>> {
        let mut state = self.lock();
        let jobs = jobs_of(&mut state, follow_ups, now, window_start);
        for job in jobs.iter().rev() {
            state.pending.push_front(*job);
        }
        self.changed.notify_all();
        jobs.iter().map(|job| Some(job.id)).collect()
    }

    /// The page of `job` (`request`) as of `now`: read ahead when it was, for this instant, else
    /// read now on this thread.
    pub(crate) fn take(&self, job: usize, request: PageRequest, now: i64) -> Taken {
        let read_here = || Taken {
            page: self.reader.page(request.list, request.page, now),
            read_ahead: false,
        };
        let mut state = self.lock();
        loop {
            if let Some((at, page)) = state.read.remove(&job) {
                drop(state);
                return if at == now {
                    Taken {
                        page,
                        read_ahead: true,
                    }
                } else {
                    read_here()
                };
            }
            if let Some(position) = state.pending.iter().position(|pending| pending.id == job) {
                state.pending.remove(position);
                drop(state);
                return read_here();
            }
            if state.helper_failed {
                drop(state);
                return read_here();
            }
            // A helper is reading it: read another page meanwhile rather than wait idle.
            state = match state.pending.pop_front() {
                Some(other) => {
                    drop(state);
                    self.read_job(other)
                }
                None => self
                    .changed
                    .wait(state)
                    .unwrap_or_else(|poisoned| poisoned.into_inner()),
            };
        }
    }

    /// Reads `job` and keeps the page; returns the state locked again.
    fn read_job(&self, job: Job) -> MutexGuard<'_, PoolState> {
        let page = self.reader.page(job.request.list, job.request.page, job.at);
        let mut state = self.lock();
        state.read.insert(job.id, (job.at, page));
        self.changed.notify_all();
        state
    }

    /// A helper thread's work: read pending pages until the pool closes.
    pub(crate) fn help(&self) {
        let _guard = HelperGuard { pool: self };
        let mut state = self.lock();
        while !state.closed {
            state = match state.pending.pop_front() {
                Some(job) => {
                    drop(state);
                    self.read_job(job)
                }
                None => self
                    .changed
                    .wait(state)
                    .unwrap_or_else(|poisoned| poisoned.into_inner()),
            };
        }
    }

    /// Ends the window: helpers stop once they have read the page in hand.
    pub(crate) fn close(&self) {
        let mut state = self.lock();
        state.closed = true;
        state.pending.clear();
        self.changed.notify_all();
    }
}

/// Tells the replay that a helper stopped in a panic, so that it never waits for a page that
/// helper had taken.
struct HelperGuard<'pool, 'reader> {
    pool: &'pool ReadAheadPool<'reader>,
}

impl Drop for HelperGuard<'_, '_> {
    fn drop(&mut self) {
        if std::thread::panicking() {
            self.pool.lock().helper_failed = true;
            self.pool.changed.notify_all();
        }
    }
}

/// The jobs of `requests`, each at the instant the replay will fetch it: the latest of `now`,
/// the window's start and the instants of the requests up to it.
fn jobs_of(
    state: &mut PoolState,
    requests: &[PageRequest],
    now: i64,
    window_start: i64,
) -> Vec<Job> {
    let mut instant = now;
    requests
        .iter()
        .map(|&request| {
            instant = instant.max(request.at.as_second()).max(window_start);
            let id = state.next_id;
            state.next_id += 1;
            Job {
                id,
                request,
                at: instant,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use trawl_sim::{FamilyName, Scale, Site, SiteConfig};

    use super::*;
    use crate::freshness::forum::{board_list, thread_list, timestamp};

    fn request(list: trawl_schedule::ListId, page: u32, at: i64) -> PageRequest {
        PageRequest {
            at: timestamp(at),
            list,
            page,
        }
    }

    #[test]
    fn a_page_read_ahead_is_used_only_at_its_instant_and_is_the_page_read_in_turn() {
        let site = Arc::new(Site::build(SiteConfig::new(
            FamilyName::Phpbb,
            4,
            Scale::Small,
        )));
        let reader = PageReader::new(Arc::clone(&site));
        let history = site.history();
        let at = history.start + (history.end - history.start) / 2;
        let thread = history.board(1).expect("a first board").threads[0];
        let plan = [
            request(board_list(1), 1, at),
            request(thread_list(thread), 1, at),
            request(board_list(2), 1, at + 600),
        ];
        let pool = ReadAheadPool::new(&reader);
        let jobs = pool.add_plan(&plan, at - 60, at - 60);
        let follow_ups = pool.add_follow_ups(&[request(board_list(1), 2, at)], at, at - 60);
        std::thread::scope(|scope| {
            scope.spawn(|| pool.help());
            // The helper takes the follow-up first; every page comes back as reading it in
            // turn gives, read ahead or not.
            let taken = pool.take(
                follow_ups[0].expect("a job"),
                request(board_list(1), 2, at),
                at,
            );
            assert_eq!(taken.page, reader.page(board_list(1), 2, at));
            for (index, job) in jobs.iter().enumerate().take(2) {
                let taken = pool.take(job.expect("a job"), plan[index], at);
                assert_eq!(taken.page, reader.page(plan[index].list, 1, at), "{index}");
            }
            // The clock reached a later instant than the plan's third page is read for: read
            // ahead, pending or in a helper's hands, it is read again at the instant reached.
            let later = at + 3_600;
            let taken = pool.take(jobs[2].expect("a job"), plan[2], later);
            assert!(!taken.read_ahead);
            assert_eq!(taken.page, reader.page(board_list(2), 1, later));
            pool.close();
        });
    }
}
