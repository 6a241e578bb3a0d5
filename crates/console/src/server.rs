//! The routes, the access check in front of them, and the thread the console runs on.

use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::Arc;

use axum::Router;
use axum::body::Bytes;
use axum::extract::{Path, Query, Request, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Redirect, Response};
use axum::routing::{get, post};
use trawl_learn::plan::Plan;
use trawl_model::{Clock, SystemClock};
use trawl_store::{Store, StoreError, StoreLocation};

use crate::access::{self, Shown, TOKEN_COOKIE};
use crate::data::{self, Cache, LoadedPages, PagesNow, Progress};
use crate::freshness::FreshnessCache;
use crate::html::{SiteNav, escape, page};
use crate::plan_edit::{self, DecisionChange, EditError};
use crate::views;
use crate::{ConsoleError, ConsoleOptions};

const STYLESHEET: &str = include_str!("../assets/console.css");
const SCRIPT: &str = include_str!("../assets/console.js");

/// What every request shares.
#[derive(Debug)]
struct App {
    location: StoreLocation,
    sites: Vec<String>,
    token: Option<String>,
    cache: Arc<Cache>,
    freshness: FreshnessCache,
}

/// A view that could not be shown, as the answer the browser gets.
#[derive(Debug)]
enum Failure {
    NotFound(String),
    BadRequest(String),
    Conflict(String),
    /// What was asked for existed once and is no more (a vertex of a plan learned again).
    Gone(String),
    Console(ConsoleError),
    /// The site's pages are being read on a thread of their own: (read, of).
    Reading(usize, usize),
}

impl From<ConsoleError> for Failure {
    fn from(error: ConsoleError) -> Failure {
        Failure::Console(error)
    }
}

impl From<StoreError> for Failure {
    fn from(error: StoreError) -> Failure {
        Failure::Console(ConsoleError::Store(error))
    }
}

use crate::error_chain as chain;

impl IntoResponse for Failure {
    fn into_response(self) -> Response {
        let (status, words) = match self {
            Failure::NotFound(words) => (StatusCode::NOT_FOUND, words),
            Failure::BadRequest(words) => (StatusCode::BAD_REQUEST, words),
            Failure::Conflict(words) => (StatusCode::CONFLICT, words),
            Failure::Gone(words) => (StatusCode::GONE, words),
            Failure::Console(error) => (StatusCode::INTERNAL_SERVER_ERROR, chain(&error)),
            Failure::Reading(read, total) => {
                return Html(views::crawl::reading_notice(read, total)).into_response();
            }
        };
        let body = format!("<p class=\"error\" id=\"error\">{}</p>", escape(&words));
        (status, Html(page("Cannot show this", None, None, &body))).into_response()
    }
}

/// An HTML answer.
struct Html(String);

impl IntoResponse for Html {
    fn into_response(self) -> Response {
        ([(header::CONTENT_TYPE, "text/html; charset=utf-8")], self.0).into_response()
    }
}

type Answer = Result<Response, Failure>;

/// Runs a view's store work on tokio's blocking threads.
async fn blocking(app: Arc<App>, work: impl FnOnce(&App) -> Answer + Send + 'static) -> Response {
    match tokio::task::spawn_blocking(move || work(&app)).await {
        Ok(Ok(response)) => response,
        Ok(Err(failure)) => failure.into_response(),
        Err(_) => (StatusCode::INTERNAL_SERVER_ERROR, "the view failed").into_response(),
    }
}

impl App {
    fn site(&self, index: usize) -> Result<(SiteNav<'_>, &str), Failure> {
        let name = self
            .sites
            .get(index)
            .ok_or_else(|| Failure::NotFound(format!("there is no site {index}")))?;
        Ok((
            SiteNav {
                index,
                name,
                several: self.sites.len() > 1,
            },
            name,
        ))
    }

    fn open(&self, site: &str, read_only: bool) -> Result<Store, Failure> {
        Ok(data::open_site(&self.location, site, read_only)?)
    }

    /// The site's pages, or, while a big crawl is first read, a page saying how far that is.
    fn pages(&self, site: &str, store: &Store) -> Result<Arc<LoadedPages>, Failure> {
        match self.cache.pages_now(&self.location, site, store)? {
            PagesNow::Read(loaded) => Ok(loaded),
            PagesNow::Reading { read, total } => Err(Failure::Reading(read, total)),
            PagesNow::Failed(words) => Err(Failure::Console(ConsoleError::Reading(words))),
        }
    }
}

/// The stored plan and its generation; a crawl without a plan has none to review.
fn stored_plan(store: &Store) -> Result<(Plan, u32), Failure> {
    let settings = data::settings_of(store)?;
    let text = settings.plan_json.ok_or_else(|| {
        Failure::NotFound(format!(
            "this crawl has no plan: it was begun with the {} strategy",
            settings.strategy
        ))
    })?;
    let plan = Plan::from_json(&text).map_err(ConsoleError::Plan)?;
    Ok((plan, settings.plan_generation))
}

async fn index(State(app): State<Arc<App>>) -> Response {
    if app.sites.len() == 1 {
        return Redirect::to("/site/0/").into_response();
    }
    Html(views::crawl::site_picker(
        &app.location.to_string(),
        &app.sites,
    ))
    .into_response()
}

async fn overview(State(app): State<Arc<App>>, Path(site): Path<usize>) -> Response {
    blocking(app, move |app| {
        let (nav, name) = app.site(site)?;
        let store = app.open(name, true)?;
        let settings = data::settings_of(&store)?;
        let watched = store.document("watch")?.is_some();
        // The totals the store keeps answer at once however big the crawl and however far it
        // moved since the last view; only a store written before them, opened read only,
        // has its pages read and its frontier counted.
        if let Some(summary) = store.summary()? {
            let progress = Progress::of_summary(&summary);
            let running = progress.is_running(SystemClock.now());
            return Ok(Html(views::crawl::overview(
                nav, &settings, &progress, running, watched,
            ))
            .into_response());
        }
        let loaded = match app.cache.pages_now(&app.location, name, &store)? {
            PagesNow::Read(loaded) => loaded,
            PagesNow::Reading { read, total } => {
                // The page count is what the store counts at once; the posts are not (counting
                // a million rows takes half a second), so they wait for the pages like the rest.
                return Ok(Html(views::crawl::overview_while_reading(
                    nav, &settings, total, read, watched,
                ))
                .into_response());
            }
            PagesNow::Failed(words) => {
                return Err(Failure::Console(ConsoleError::Reading(words)));
            }
        };
        let frontier = app.cache.waiting(name, &store, loaded.count)?;
        let progress = Progress::of(&loaded.pages, frontier);
        let running = progress.is_running(SystemClock.now());
        Ok(Html(views::crawl::overview(
            nav, &settings, &progress, running, watched,
        ))
        .into_response())
    })
    .await
}

async fn plan_page(
    State(app): State<Arc<App>>,
    Path(site): Path<usize>,
    Query(query): Query<HashMap<String, String>>,
) -> Response {
    blocking(app, move |app| {
        let (nav, name) = app.site(site)?;
        let store = app.open(name, true)?;
        let (plan, generation) = stored_plan(&store)?;
        let saved = query.get("saved").and_then(|saved| saved.parse().ok());
        let svg = crate::graph::svg(&plan, &|vertex| {
            views::plan::vertex_href(site, vertex, generation)
        });
        Ok(Html(views::plan::plan_view(nav, &plan, generation, saved, &svg)).into_response())
    })
    .await
}

async fn plan_svg(State(app): State<Arc<App>>, Path(site): Path<usize>) -> Response {
    blocking(app, move |app| {
        let (_, name) = app.site(site)?;
        let store = app.open(name, true)?;
        let (plan, generation) = stored_plan(&store)?;
        let svg = crate::graph::svg(&plan, &|vertex| {
            views::plan::vertex_href(site, vertex, generation)
        });
        Ok(([(header::CONTENT_TYPE, "image/svg+xml")], svg).into_response())
    })
    .await
}

async fn vertex(
    State(app): State<Arc<App>>,
    Path((site, vertex)): Path<(usize, usize)>,
    Query(query): Query<HashMap<String, String>>,
) -> Response {
    blocking(app, move |app| {
        let (nav, name) = app.site(site)?;
        let store = app.open(name, true)?;
        let (plan, generation) = stored_plan(&store)?;
        // Vertex numbers hold from the last plan learned on; later generations changed
        // decisions only. A link made under an earlier plan names a vertex of that plan.
        let numbered_since = store.plan_vertices_since()?;
        if let Some(asked) = query.get("generation") {
            let asked: u32 = asked
                .parse()
                .map_err(|_| Failure::BadRequest(format!("{asked} is no plan generation")))?;
            if asked > generation {
                return Err(Failure::NotFound(format!(
                    "the plan has no generation {asked}; it is at generation {generation}"
                )));
            }
            if asked < numbered_since {
                return Err(Failure::Gone(views::plan::stale_vertex_words(
                    vertex, asked, generation,
                )));
            }
        }
        if vertex >= plan.vertices.len() {
            return Err(Failure::NotFound(format!(
                "the plan has no vertex {vertex}; it has {}",
                plan.vertices.len()
            )));
        }
        let loaded = app.pages(name, &store)?;
        let stored: Vec<&trawl_store::StoredPage> = loaded
            .pages
            .iter()
            .filter(|page| {
                page.record.vertex == Some(vertex as u32) && page.plan_generation >= numbered_since
            })
            .take(views::plan::PAGES_SHOWN)
            .collect();
        let drawable = |url: &str| {
            loaded.fetches_of_url.get(url).is_some_and(|fetches| {
                fetches
                    .iter()
                    .any(|&index| (200..300).contains(&loaded.pages[index].record.status))
            })
        };
        Ok(Html(views::plan::vertex_view(
            nav, &plan, generation, vertex, &stored, &drawable,
        ))
        .into_response())
    })
    .await
}

/// The form's fields: `generation`, `vertex` and `arc-N` = decision.
struct DecisionForm {
    generation: u32,
    vertex: Option<usize>,
    decisions: Vec<DecisionChange>,
}

fn read_form(body: &[u8]) -> Result<DecisionForm, Failure> {
    let mut generation = None;
    let mut vertex = None;
    let mut decisions = Vec::new();
    for (name, value) in url::form_urlencoded::parse(body) {
        if name == "generation" {
            generation = value.parse().ok();
        } else if name == "vertex" {
            vertex = value.parse().ok();
        } else if let Some(arc) = name.strip_prefix("arc-") {
            let arc = arc
                .parse()
                .map_err(|_| Failure::BadRequest(format!("{name} names no arc")))?;
            let decision = plan_edit::decision_from_name(&value)
                .ok_or_else(|| Failure::BadRequest(format!("{value} is no decision")))?;
            decisions.push(DecisionChange { arc, decision });
        }
    }
    let generation = generation
        .ok_or_else(|| Failure::BadRequest("the form names no plan generation".to_string()))?;
    Ok(DecisionForm {
        generation,
        vertex,
        decisions,
    })
}

fn edit_failure(error: EditError) -> Failure {
    match error {
        EditError::NoSuchArc { .. } => Failure::BadRequest(error.to_string()),
        EditError::Invalid(_) => Failure::BadRequest(chain(&error)),
    }
}

fn stale(form: &DecisionForm, generation: u32) -> Result<(), Failure> {
    if form.generation == generation {
        Ok(())
    } else {
        Err(Failure::Conflict(format!(
            "the plan changed since this form was made (generation {} then, {generation} now); \
             open the plan again and redo the change",
            form.generation
        )))
    }
}

fn from_this_console(headers: &HeaderMap) -> Result<(), Failure> {
    let text = |name| {
        headers
            .get(name)
            .and_then(|value: &HeaderValue| value.to_str().ok())
    };
    if access::same_origin(text(header::ORIGIN), text(header::HOST)) {
        Ok(())
    } else {
        Err(Failure::BadRequest(
            "a plan may be changed only from the console's own pages".to_string(),
        ))
    }
}

async fn preview(
    State(app): State<Arc<App>>,
    Path(site): Path<usize>,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    blocking(app, move |app| {
        from_this_console(&headers)?;
        let form = read_form(&body)?;
        let (nav, name) = app.site(site)?;
        let store = app.open(name, true)?;
        let (plan, generation) = stored_plan(&store)?;
        stale(&form, generation)?;
        let changed = plan_edit::apply_changes(&plan, &form.decisions).map_err(edit_failure)?;
        let preview = plan_edit::preview(&plan, &changed);
        Ok(Html(views::plan::preview_view(
            nav,
            &plan,
            generation,
            form.vertex,
            &preview,
        ))
        .into_response())
    })
    .await
}

async fn save(
    State(app): State<Arc<App>>,
    Path(site): Path<usize>,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    blocking(app, move |app| {
        from_this_console(&headers)?;
        let form = read_form(&body)?;
        let (_, name) = app.site(site)?;
        let mut store = app.open(name, false)?;
        let (plan, generation) = stored_plan(&store)?;
        stale(&form, generation)?;
        let changed = plan_edit::apply_changes(&plan, &form.decisions).map_err(edit_failure)?;
        if !plan_edit::preview(&plan, &changed).changes_anything() {
            return Ok(Redirect::to(&format!("/site/{site}/plan")).into_response());
        }
        // Decisions changed only: the vertices keep their numbers.
        let saved = store.replace_plan_decisions(&changed.to_json())?;
        Ok(Redirect::to(&format!("/site/{site}/plan?saved={saved}")).into_response())
    })
    .await
}

async fn audit(State(app): State<Arc<App>>, Path(site): Path<usize>) -> Response {
    blocking(app, move |app| {
        let (nav, name) = app.site(site)?;
        let store = app.open(name, true)?;
        let now = app.cache.audit(&app.location, name, store.page_count()?);
        let loaded = app.pages(name, &store)?;
        Ok(Html(views::crawl::audit_view(nav, &now, &loaded)).into_response())
    })
    .await
}

async fn threads(
    State(app): State<Arc<App>>,
    Path(site): Path<usize>,
    Query(query): Query<HashMap<String, String>>,
) -> Response {
    blocking(app, move |app| {
        let (nav, name) = app.site(site)?;
        let store = app.open(name, true)?;
        let loaded = app.pages(name, &store)?;
        let threads = app.cache.threads(name, &loaded);
        let from = query
            .get("from")
            .and_then(|from| from.parse().ok())
            .unwrap_or(0);
        Ok(Html(views::crawl::threads_view(nav, &loaded, &threads, from)).into_response())
    })
    .await
}

fn url_asked(query: &HashMap<String, String>) -> Result<String, Failure> {
    query
        .get("url")
        .cloned()
        .ok_or_else(|| Failure::BadRequest("say which page: ?url=...".to_string()))
}

async fn thread(
    State(app): State<Arc<App>>,
    Path(site): Path<usize>,
    Query(query): Query<HashMap<String, String>>,
) -> Response {
    blocking(app, move |app| {
        let (nav, name) = app.site(site)?;
        let url = url_asked(&query)?;
        let store = app.open(name, true)?;
        let loaded = app.pages(name, &store)?;
        let fetches = loaded.fetches_of_url.get(&url);
        let threads = app.cache.threads(name, &loaded);
        let thread = threads
            .threads
            .iter()
            .find(|thread| {
                fetches
                    .is_some_and(|fetches| thread.pages.iter().any(|page| fetches.contains(page)))
            })
            .ok_or_else(|| Failure::NotFound(format!("no thread of the crawl holds {url}")))?;
        Ok(Html(views::crawl::thread_view(nav, &loaded, thread)).into_response())
    })
    .await
}

async fn stored_page(
    State(app): State<Arc<App>>,
    Path(site): Path<usize>,
    Query(query): Query<HashMap<String, String>>,
) -> Response {
    blocking(app, move |app| {
        let (nav, name) = app.site(site)?;
        let url = url_asked(&query)?;
        let store = app.open(name, true)?;
        let loaded = app.pages(name, &store)?;
        let fetches: Vec<&trawl_store::StoredPage> = loaded
            .fetches_of_url
            .get(&url)
            .into_iter()
            .flatten()
            .map(|&index| &loaded.pages[index])
            .collect();
        Ok(Html(views::crawl::page_view(nav, &url, &fetches)).into_response())
    })
    .await
}

/// The policy of a rendered forum page: nothing loads but the console's own stylesheet and
/// script, whatever the forum's markup held (see [`crate::render`]).
const RENDERING_POLICY: &str = "default-src 'none'; style-src 'self'; script-src 'self'; \
     base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

/// A stored page drawn with its repetitive regions outlined: the last answered fetch of
/// `?url=`, its body read alone from the store.
async fn rendered_page(
    State(app): State<Arc<App>>,
    Path(site): Path<usize>,
    Query(query): Query<HashMap<String, String>>,
) -> Response {
    blocking(app, move |app| {
        let (nav, name) = app.site(site)?;
        let url = url_asked(&query)?;
        let store = app.open(name, true)?;
        let loaded = app.pages(name, &store)?;
        let fetch = loaded
            .fetches_of_url
            .get(&url)
            .into_iter()
            .flatten()
            .rev()
            .map(|&index| &loaded.pages[index])
            .find(|fetch| (200..300).contains(&fetch.record.status))
            .ok_or_else(|| {
                Failure::NotFound(format!("the crawl holds no answered fetch of {url}"))
            })?;
        let body = store.page_body(fetch.id)?.unwrap_or_default();
        let content_type = fetch
            .record
            .headers
            .iter()
            .find(|(name, _)| name.eq_ignore_ascii_case("content-type"))
            .map(|(_, value)| value.as_str());
        let text = trawl_page::charset::decode_html(&body, content_type, None).text;
        let rendering = crate::render::outlined(&text, fetch.record.post_pattern);
        let mut response = Html(views::plan::rendered_view(nav, fetch, &rendering)).into_response();
        response.headers_mut().insert(
            header::CONTENT_SECURITY_POLICY,
            HeaderValue::from_static(RENDERING_POLICY),
        );
        Ok(response)
    })
    .await
}

async fn freshness(State(app): State<Arc<App>>, Path(site): Path<usize>) -> Response {
    blocking(app, move |app| {
        let (nav, name) = app.site(site)?;
        let store = app.open(name, true)?;
        let loaded = app.pages(name, &store)?;
        let shown = match app.freshness.snapshot(name, &store, &loaded)? {
            Some(snapshot) => views::freshness::forum_view(nav, &snapshot),
            None => views::freshness::not_watched(nav),
        };
        Ok(Html(shown).into_response())
    })
    .await
}

async fn board_freshness(
    State(app): State<Arc<App>>,
    Path((site, board)): Path<(usize, String)>,
) -> Response {
    blocking(app, move |app| {
        let (nav, name) = app.site(site)?;
        let list = views::freshness::board_list_of(&board)
            .ok_or_else(|| Failure::BadRequest(format!("{board:?} names no board")))?;
        let store = app.open(name, true)?;
        let loaded = app.pages(name, &store)?;
        let Some(snapshot) = app.freshness.snapshot(name, &store, &loaded)? else {
            return Ok(Html(views::freshness::not_watched(nav)).into_response());
        };
        let board = snapshot
            .board(list)
            .ok_or_else(|| Failure::NotFound(format!("the watch knows no board {board}")))?;
        Ok(Html(views::freshness::board_view(nav, &snapshot, board)).into_response())
    })
    .await
}

async fn stylesheet() -> Response {
    (
        [(header::CONTENT_TYPE, "text/css; charset=utf-8")],
        STYLESHEET,
    )
        .into_response()
}

async fn script() -> Response {
    (
        [(header::CONTENT_TYPE, "text/javascript; charset=utf-8")],
        SCRIPT,
    )
        .into_response()
}

/// Lets a request through when the console needs no token or the request shows it.
async fn check_token(State(app): State<Arc<App>>, request: Request, next: Next) -> Response {
    let Some(token) = &app.token else {
        return next.run(request).await;
    };
    // Read apart from the request, which is not shared across the awaits below.
    let (shown, target) = {
        let headers = request.headers();
        let text = |name| {
            headers
                .get(name)
                .and_then(|value: &HeaderValue| value.to_str().ok())
        };
        let shown = access::token_shown(
            token,
            request.uri().query(),
            text(header::COOKIE),
            text(header::AUTHORIZATION),
        );
        let path = request.uri().path();
        let target = match request.uri().query().and_then(access::query_without_token) {
            Some(query) => format!("{path}?{query}"),
            None => path.to_string(),
        };
        (shown, target)
    };
    match shown {
        Shown::Held => next.run(request).await,
        Shown::InQuery => {
            let cookie = format!("{TOKEN_COOKIE}={token}; Path=/; HttpOnly; SameSite=Strict");
            ([(header::SET_COOKIE, cookie)], Redirect::to(&target)).into_response()
        }
        Shown::Not => {
            let body = "<p class=\"error\" id=\"error\">This console needs its token: open the \
                        address `trawl serve` printed, which carries it.</p>";
            (
                StatusCode::UNAUTHORIZED,
                Html(page("Token needed", None, None, body)),
            )
                .into_response()
        }
    }
}

fn router(app: Arc<App>) -> Router {
    Router::new()
        .route("/", get(index))
        .route("/site/{site}/", get(overview))
        .route("/site/{site}/plan", get(plan_page))
        .route("/site/{site}/plan.svg", get(plan_svg))
        .route("/site/{site}/vertex/{vertex}", get(vertex))
        .route("/site/{site}/preview", post(preview))
        .route("/site/{site}/save", post(save))
        .route("/site/{site}/audit", get(audit))
        .route("/site/{site}/threads", get(threads))
        .route("/site/{site}/thread", get(thread))
        .route("/site/{site}/page", get(stored_page))
        .route("/site/{site}/rendered", get(rendered_page))
        .route("/site/{site}/freshness", get(freshness))
        .route("/site/{site}/freshness/board/{board}", get(board_freshness))
        .route("/assets/console.css", get(stylesheet))
        .route("/assets/console.js", get(script))
        .layer(middleware::from_fn_with_state(
            Arc::clone(&app),
            check_token,
        ))
        .with_state(app)
}

/// A console serving on its own thread until stopped (or until the process ends).
#[derive(Debug)]
pub struct RunningConsole {
    address: SocketAddr,
    token: Option<String>,
    sites: Vec<String>,
    shutdown: Option<tokio::sync::oneshot::Sender<()>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl RunningConsole {
    /// The address bound.
    pub fn address(&self) -> SocketAddr {
        self.address
    }

    /// The token requests must show, when one is needed.
    pub fn token(&self) -> Option<&str> {
        self.token.as_deref()
    }

    /// The sites the store holds.
    pub fn sites(&self) -> &[String] {
        &self.sites
    }

    /// The address to open in a browser: with the token, when one is needed.
    pub fn url(&self) -> String {
        match &self.token {
            Some(token) => format!("http://{}/?token={token}", self.address),
            None => format!("http://{}/", self.address),
        }
    }

    /// Serves until the process ends.
    pub fn wait(mut self) {
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }

    /// Stops serving and waits for the thread to end.
    pub fn stop(mut self) {
        self.stop_serving();
    }

    fn stop_serving(&mut self) {
        if let Some(shutdown) = self.shutdown.take() {
            let _ = shutdown.send(());
        }
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

impl Drop for RunningConsole {
    fn drop(&mut self) {
        self.stop_serving();
    }
}

/// Reads a lone site's pages and starts its audit while nobody waits yet, so that the first view
/// opened finds them ready: on a crawl of 100,000 pages the reading takes seconds. A store of
/// many sites is read site by site as they are opened, so a fleet's database is not read whole
/// at start.
fn preload(app: &Arc<App>) {
    let [name] = app.sites.as_slice() else {
        return;
    };
    let app = Arc::clone(app);
    let name = name.clone();
    // A failed preload costs nothing but time: the first view reads again and shows the error.
    let _ = std::thread::Builder::new()
        .name("trawl-console-preload".to_string())
        .spawn(move || {
            let Ok(store) = app.open(&name, true) else {
                return;
            };
            // A big crawl is read on a thread of its own; this one waits for it, then makes
            // what the first views of threads and the audit would wait for.
            let loaded = loop {
                match app.cache.pages_now(&app.location, &name, &store) {
                    Ok(PagesNow::Read(loaded)) => break loaded,
                    Ok(PagesNow::Reading { .. }) => {
                        std::thread::sleep(std::time::Duration::from_millis(50));
                    }
                    Ok(PagesNow::Failed(_)) | Err(_) => return,
                }
            };
            let _ = app.cache.threads(&name, &loaded);
            // Only a store without the totals has its frontier counted for the overview.
            if matches!(store.summary(), Ok(None)) {
                let _ = app.cache.waiting(&name, &store, loaded.count);
            }
            let _ = app.cache.audit(&app.location, &name, loaded.count);
        });
}

pub(crate) fn start(options: ConsoleOptions) -> Result<RunningConsole, ConsoleError> {
    let sites = data::list_sites(&options.location)?;
    if sites.is_empty() {
        return Err(ConsoleError::NoCrawl {
            database: options.location.to_string(),
        });
    }
    let token = match options.token {
        Some(token) => Some(token),
        None if access::needs_token(&options.address) => {
            Some(access::new_token().map_err(ConsoleError::Start)?)
        }
        None => None,
    };
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .thread_name("trawl-console")
        .enable_all()
        .build()
        .map_err(ConsoleError::Start)?;
    let listener = runtime
        .block_on(tokio::net::TcpListener::bind(options.address))
        .map_err(|source| ConsoleError::Bind {
            address: options.address,
            source,
        })?;
    let address = listener.local_addr().map_err(|source| ConsoleError::Bind {
        address: options.address,
        source,
    })?;
    let app = Arc::new(App {
        location: options.location,
        sites: sites.clone(),
        token: token.clone(),
        cache: Arc::new(Cache::default()),
        freshness: FreshnessCache::default(),
    });
    let app_for_preload = Arc::clone(&app);
    let (shutdown, stopped) = tokio::sync::oneshot::channel::<()>();
    let thread = std::thread::Builder::new()
        .name("trawl-console".to_string())
        .spawn(move || {
            runtime.block_on(async move {
                let server =
                    axum::serve(listener, router(app)).with_graceful_shutdown(async move {
                        let _ = stopped.await;
                    });
                // An error after a successful bind is an accept failure the runtime already
                // retried; the console has no channel but the log to report it on.
                if let Err(error) = server.await {
                    eprintln!("trawl console stopped: {error}");
                }
            });
        })
        .map_err(ConsoleError::Start)?;
    preload(&app_for_preload);
    Ok(RunningConsole {
        address,
        token,
        sites,
        shutdown: Some(shutdown),
        thread: Some(thread),
    })
}
