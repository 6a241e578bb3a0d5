//! Serves a simulated forum over real HTTP on loopback.
//!
//! [`SimServer::start`] binds an address, starts a small tokio runtime on a background thread and
//! answers every request with [`trawl_sim::Site::serve`] as of the server's [`Clock`]. The clock is
//! the [`ServerClock`] the user chose: real time, a fixed instant, or an accelerated clock that
//! replays the forum's history faster than real time. A request may also name the instant it wants
//! with the `X-Trawl-At` header (RFC 3339); that is how a crawler running on a simulated clock asks
//! an HTTP-served forum for a page "as of" its own time, exactly as the in-process fetcher does.
//!
//! The server is a thin edge: it owns no forum logic, so the HTTP-served forum and the in-process
//! [`trawl_sim::SimFetcher`] answer byte for byte the same.

use std::net::SocketAddr;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use axum::Router;
use axum::body::Body;
use axum::extract::State;
use axum::http::{HeaderMap, HeaderName, HeaderValue, StatusCode, Uri};
use axum::response::Response;
use trawl_model::{AcceleratedClock, Clock, FixedClock, SystemClock, Timestamp};
use trawl_sim::Site;

/// The request header that asks for the forum as of a given instant (RFC 3339).
pub const AT_HEADER: &str = "x-trawl-at";

/// Which clock decides "now" for requests that do not name an instant.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum ServerClock {
    /// The machine's wall clock.
    Real,
    /// Always the same instant.
    Fixed(Timestamp),
    /// Starts at `origin` and runs `factor` times faster than real time.
    Accelerated {
        /// The simulated instant at server start.
        origin: Timestamp,
        /// Simulated seconds per real second.
        factor: f64,
    },
}

impl ServerClock {
    /// The clock as a shareable [`Clock`].
    pub fn into_clock(self) -> Arc<dyn Clock> {
        match self {
            ServerClock::Real => Arc::new(SystemClock),
            ServerClock::Fixed(instant) => Arc::new(FixedClock::new(instant)),
            ServerClock::Accelerated { origin, factor } => {
                Arc::new(AcceleratedClock::new(origin, factor))
            }
        }
    }
}

/// Why the server could not start.
#[derive(Debug, thiserror::Error)]
pub enum ServerError {
    /// The address could not be bound (in use, not local, malformed).
    #[error("cannot listen on {address}")]
    Bind {
        /// The address asked for.
        address: String,
        /// The operating system's reason.
        source: std::io::Error,
    },
    /// The runtime could not be started.
    #[error("cannot start the server runtime: {0}")]
    Runtime(std::io::Error),
}

struct AppState {
    site: Arc<Site>,
    clock: Arc<dyn Clock>,
    options: ServeOptions,
}

/// How the server behaves beyond answering from the forum: for benchmarks that must not be
/// CPU-bound and that count requests where they arrive.
#[derive(Debug, Clone, Default)]
pub struct ServeOptions {
    /// Time every answer waits before it is sent, as a remote forum's round trip and rendering
    /// would take. Waiting does not hold a server thread, so many requests can wait at once.
    pub latency: std::time::Duration,
    /// Where every request is written down, when the caller wants to judge the client by them.
    pub log: Option<Arc<RequestLog>>,
}

/// One request as the server saw it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LoggedRequest {
    /// The path and query asked for.
    pub path_and_query: String,
    /// When the request arrived.
    pub arrived: Instant,
    /// When its answer was ready to send, after the latency; or, for a request whose client
    /// went away before that (a crawler killed mid-request), when the server gave it up.
    pub answered: Instant,
}

/// The requests one server received, and the most it had in flight at once: the client's
/// politeness judged at the server (one connection at a time, the delay kept between requests,
/// no page asked for twice) rather than by the client's word.
#[derive(Debug, Default)]
pub struct RequestLog {
    requests: Mutex<Vec<LoggedRequest>>,
    in_flight: AtomicUsize,
    most_in_flight: AtomicUsize,
}

impl RequestLog {
    /// The requests answered so far, in the order they were answered.
    pub fn requests(&self) -> Vec<LoggedRequest> {
        self.requests
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .clone()
    }

    /// The most requests this server was answering at the same moment.
    pub fn most_in_flight(&self) -> usize {
        self.most_in_flight.load(Ordering::SeqCst)
    }

    /// Forgets every request, for the next run against the same server.
    pub fn clear(&self) {
        self.requests
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .clear();
        self.most_in_flight.store(0, Ordering::SeqCst);
    }

    /// Counts a request in flight until the returned guard is dropped, which writes it down.
    fn arrive(&self, path_and_query: String, arrived: Instant) -> InFlight<'_> {
        let now_in_flight = self.in_flight.fetch_add(1, Ordering::SeqCst) + 1;
        self.most_in_flight
            .fetch_max(now_in_flight, Ordering::SeqCst);
        InFlight {
            log: self,
            path_and_query,
            arrived,
        }
    }

    fn leave(&self, request: LoggedRequest) {
        self.in_flight.fetch_sub(1, Ordering::SeqCst);
        self.requests
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .push(request);
    }
}

/// A request being answered. The server drops a request's handler when its client goes away
/// (a crawler killed mid-request), so the request leaves the count in flight when this guard is
/// dropped, however the handler ends: counted only at the end of a completed handler, every
/// abandoned request stayed in flight for ever, and the next request seemed to have company.
struct InFlight<'log> {
    log: &'log RequestLog,
    path_and_query: String,
    arrived: Instant,
}

impl Drop for InFlight<'_> {
    fn drop(&mut self) {
        self.log.leave(LoggedRequest {
            path_and_query: std::mem::take(&mut self.path_and_query),
            arrived: self.arrived,
            answered: Instant::now(),
        });
    }
}

/// A running server; dropping it (or calling [`SimServer::stop`]) shuts it down.
#[derive(Debug)]
pub struct SimServer {
    address: SocketAddr,
    shutdown: Option<tokio::sync::oneshot::Sender<()>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl SimServer {
    /// Binds `address` (for example `127.0.0.1:0` for any free port) and serves `site` on
    /// `workers` threads until stopped.
    pub fn start(
        site: Arc<Site>,
        clock: Arc<dyn Clock>,
        address: &str,
        workers: usize,
    ) -> Result<SimServer, ServerError> {
        SimServer::start_with(site, clock, address, workers, ServeOptions::default())
    }

    /// As [`SimServer::start`], answering after `options.latency` and writing every request
    /// into `options.log`.
    pub fn start_with(
        site: Arc<Site>,
        clock: Arc<dyn Clock>,
        address: &str,
        workers: usize,
        options: ServeOptions,
    ) -> Result<SimServer, ServerError> {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(workers.max(1))
            .thread_name("trawl-sim-server")
            .enable_all()
            .build()
            .map_err(ServerError::Runtime)?;
        let listener = runtime
            .block_on(tokio::net::TcpListener::bind(address))
            .map_err(|source| ServerError::Bind {
                address: address.to_string(),
                source,
            })?;
        let bound = listener.local_addr().map_err(|source| ServerError::Bind {
            address: address.to_string(),
            source,
        })?;
        let (shutdown, stopped) = tokio::sync::oneshot::channel::<()>();
        let app = Router::new()
            .fallback(answer)
            .with_state(Arc::new(AppState {
                site,
                clock,
                options,
            }));
        let thread = std::thread::Builder::new()
            .name("trawl-sim-server".to_string())
            .spawn(move || {
                runtime.block_on(async move {
                    let server = axum::serve(listener, app).with_graceful_shutdown(async move {
                        let _ = stopped.await;
                    });
                    // A serving error after a successful bind can only be an accept failure the
                    // runtime already retried; there is nobody left to report it to but the log.
                    if let Err(error) = server.await {
                        eprintln!("trawl-sim-server stopped: {error}");
                    }
                });
            })
            .map_err(ServerError::Runtime)?;
        Ok(SimServer {
            address: bound,
            shutdown: Some(shutdown),
            thread: Some(thread),
        })
    }

    /// The bound address.
    pub fn address(&self) -> SocketAddr {
        self.address
    }

    /// `http://ADDRESS` (no trailing slash).
    pub fn origin(&self) -> String {
        format!("http://{}", self.address)
    }

    /// Blocks until the server stops (it stops only when told to, so this serves forever).
    pub fn wait(mut self) {
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }

    /// Stops accepting, finishes requests in flight, and waits for the server thread.
    pub fn stop(mut self) {
        self.shut_down();
    }

    fn shut_down(&mut self) {
        if let Some(shutdown) = self.shutdown.take() {
            let _ = shutdown.send(());
        }
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

impl Drop for SimServer {
    fn drop(&mut self) {
        self.shut_down();
    }
}

async fn answer(State(state): State<Arc<AppState>>, uri: Uri, headers: HeaderMap) -> Response {
    let arrived = Instant::now();
    let in_flight = state.options.log.as_ref().map(|log| {
        let path_and_query = uri.path_and_query().map_or("/", |pq| pq.as_str());
        log.arrive(path_and_query.to_string(), arrived)
    });
    let response = answer_from_forum(&state, &uri, &headers);
    if !state.options.latency.is_zero() {
        tokio::time::sleep(state.options.latency).await;
    }
    drop(in_flight);
    response
}

fn answer_from_forum(state: &AppState, uri: &Uri, headers: &HeaderMap) -> Response {
    let instant = match headers.get(AT_HEADER) {
        Some(value) => match value
            .to_str()
            .ok()
            .and_then(|text| text.parse::<Timestamp>().ok())
        {
            Some(instant) => instant,
            None => {
                return plain(
                    StatusCode::BAD_REQUEST,
                    "X-Trawl-At must be an RFC 3339 instant",
                );
            }
        },
        None => state.clock.now(),
    };
    let path_and_query = uri.path_and_query().map_or("/", |pq| pq.as_str());
    let cookie = headers
        .get(axum::http::header::COOKIE)
        .and_then(|value| value.to_str().ok());
    let answer = state
        .site
        .serve(path_and_query, instant.as_second(), cookie);
    let mut response = Response::new(Body::from(answer.body));
    *response.status_mut() = StatusCode::from_u16(answer.status).unwrap_or(StatusCode::OK);
    for (name, value) in answer.headers {
        if let (Ok(name), Ok(value)) = (HeaderName::try_from(name), HeaderValue::try_from(value)) {
            response.headers_mut().append(name, value);
        }
    }
    response
}

fn plain(status: StatusCode, message: &'static str) -> Response {
    let mut response = Response::new(Body::from(message));
    *response.status_mut() = status;
    response
}

#[cfg(test)]
mod tests {
    use std::io::{Read, Write};
    use std::time::Duration;

    use trawl_sim::{FamilyName, Scale, SiteConfig};

    use super::*;

    /// One HTTP/1.1 request for `path` on a connection of its own; returns the status line.
    fn ask(server: &SimServer, path: &str) -> String {
        let mut connection = std::net::TcpStream::connect(server.address()).unwrap();
        write!(
            connection,
            "GET {path} HTTP/1.1\r\nHost: {}\r\nConnection: close\r\n\r\n",
            server.address()
        )
        .unwrap();
        let mut answer = String::new();
        connection.read_to_string(&mut answer).unwrap();
        answer.lines().next().unwrap_or_default().to_string()
    }

    fn logged_server(latency: Duration) -> (SimServer, Arc<RequestLog>) {
        let site = Arc::new(Site::build(SiteConfig::new(
            FamilyName::parse("phpbb").unwrap(),
            1,
            Scale::Small,
        )));
        let end = Timestamp::from_second(site.history().end).unwrap();
        let log = Arc::new(RequestLog::default());
        let server = SimServer::start_with(
            site,
            ServerClock::Fixed(end).into_clock(),
            "127.0.0.1:0",
            2,
            ServeOptions {
                latency,
                log: Some(log.clone()),
            },
        )
        .unwrap();
        (server, log)
    }

    #[test]
    fn every_request_is_logged_with_its_path_after_the_latency() {
        let latency = Duration::from_millis(80);
        let (server, log) = logged_server(latency);
        assert!(ask(&server, "/robots.txt").starts_with("HTTP/1.1 "));
        ask(&server, "/?page=2");
        let requests = log.requests();
        let paths: Vec<&str> = requests
            .iter()
            .map(|request| request.path_and_query.as_str())
            .collect();
        assert_eq!(paths, ["/robots.txt", "/?page=2"]);
        for request in &requests {
            assert!(request.answered - request.arrived >= latency, "{request:?}");
        }
        assert_eq!(log.most_in_flight(), 1);
        log.clear();
        assert!(log.requests().is_empty());
        assert_eq!(log.most_in_flight(), 0);
    }

    /// A client that goes away while its request waits out the latency (a crawler killed
    /// mid-request): the request is written down, and leaves the count in flight, so that the
    /// next request is counted alone.
    #[test]
    fn a_request_whose_client_went_away_leaves_the_count_in_flight() {
        let (server, log) = logged_server(Duration::from_millis(400));
        let mut connection = std::net::TcpStream::connect(server.address()).unwrap();
        write!(
            connection,
            "GET /abandoned HTTP/1.1\r\nHost: {}\r\n\r\n",
            server.address()
        )
        .unwrap();
        std::thread::sleep(Duration::from_millis(100));
        drop(connection);
        std::thread::sleep(Duration::from_millis(600));
        log.clear();
        ask(&server, "/robots.txt");
        assert_eq!(log.most_in_flight(), 1);
        let paths: Vec<String> = log
            .requests()
            .into_iter()
            .map(|request| request.path_and_query)
            .collect();
        assert_eq!(paths, ["/robots.txt"]);
    }

    #[test]
    fn requests_waiting_at_once_are_counted_in_flight_together() {
        let (server, log) = logged_server(Duration::from_millis(300));
        std::thread::scope(|scope| {
            for _ in 0..3 {
                scope.spawn(|| ask(&server, "/robots.txt"));
            }
        });
        assert_eq!(log.requests().len(), 3);
        assert_eq!(log.most_in_flight(), 3);
    }
}
