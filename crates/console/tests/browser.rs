//! The console in a real browser: headless Chromium from Debian's packages, driven through
//! chromedriver's WebDriver protocol. It loads every view, moves through the sitemap with the
//! keyboard, opens a page of a vertex drawn with its regions by the keyboard, changes a decision
//! in the page, previews and saves it, and checks that the plan in the store changed exactly as
//! the page said.
//!
//! WebDriver is JSON over HTTP, and the test needs eight of its commands; they are written here
//! over `ureq`, which the workspace already builds, rather than through a WebDriver crate that
//! would bring an async client and a TLS stack into the build for a loopback connection.
//!
//! With `TRAWL_CONSOLE_SCREENSHOTS=DIR` set, the test writes a PNG of each view into DIR (the
//! pictures in docs/console/ are made so).

mod support;

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use trawl_console::plan_edit;
use trawl_learn::plan::Plan;
use trawl_learn::traverse::Decision;
use trawl_store::{Store, StoreLocation};

use support::{crawled_file, serve, watched_file};

const ELEMENT: &str = "element-6066-11e4-a52e-4f735466cecf";
const ARROW_DOWN: &str = "\u{e015}";
const ARROW_RIGHT: &str = "\u{e014}";
const ENTER: &str = "\u{e007}";
const TAB: &str = "\u{e004}";

/// A chromedriver process, ended when dropped.
struct Driver {
    process: Child,
    origin: String,
    agent: ureq::Agent,
}

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.process.kill();
        let _ = self.process.wait();
    }
}

fn chromedriver() -> Driver {
    let mut process = Command::new("chromedriver")
        .arg("--port=0")
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap_or_else(|error| {
            panic!(
                "chromedriver cannot start ({error}): install Debian's chromium and \
                 chromium-driver packages, as .ci/run does"
            )
        });
    // chromedriver says on which port it listens ("... was started successfully on port N."),
    // after a first line repeating the port asked for, 0.
    let stdout = process.stdout.take().unwrap();
    let mut lines = BufReader::new(stdout).lines();
    let mut port = None;
    for line in lines.by_ref() {
        let line = line.unwrap();
        if let Some(rest) = line.split("started successfully on port ").nth(1) {
            port = rest.trim_end_matches('.').trim().parse::<u16>().ok();
            break;
        }
    }
    // The rest of its output is read and dropped, so a full pipe never stops it.
    std::thread::spawn(move || lines.for_each(drop));
    let port = port.expect("chromedriver names its port");
    let agent: ureq::Agent = ureq::Agent::config_builder()
        .http_status_as_error(false)
        .timeout_global(Some(Duration::from_secs(60)))
        .build()
        .into();
    Driver {
        process,
        origin: format!("http://127.0.0.1:{port}"),
        agent,
    }
}

/// One browser session.
struct Browser<'a> {
    driver: &'a Driver,
    session: String,
}

impl Driver {
    fn send(&self, method: &str, path: &str, body: Option<Value>) -> Value {
        let url = format!("{}{path}", self.origin);
        let mut response = match (method, body) {
            ("GET", _) => self.agent.get(&url).call(),
            ("DELETE", _) => self.agent.delete(&url).call(),
            (_, body) => self
                .agent
                .post(&url)
                .header("Content-Type", "application/json")
                .send(body.unwrap_or(json!({})).to_string()),
        }
        .unwrap();
        let status = response.status().as_u16();
        let text = response.body_mut().read_to_string().unwrap();
        let answer: Value = serde_json::from_str(&text).unwrap();
        assert_eq!(status, 200, "{method} {path}: {answer}");
        answer["value"].clone()
    }

    fn browser(&self, profile: &std::path::Path) -> Browser<'_> {
        let arguments = [
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--window-size=1100,760",
            &format!("--user-data-dir={}", profile.display()),
        ];
        let started = Instant::now();
        let value = loop {
            let url = format!("{}/status", self.origin);
            let ready = self
                .agent
                .get(&url)
                .call()
                .ok()
                .and_then(|mut response| response.body_mut().read_to_string().ok())
                .is_some_and(|text| text.contains("\"ready\":true"));
            if ready {
                break self.send(
                    "POST",
                    "/session",
                    Some(json!({"capabilities": {"alwaysMatch": {
                        "browserName": "chrome",
                        "goog:chromeOptions": {"args": arguments}
                    }}})),
                );
            }
            assert!(
                started.elapsed() < Duration::from_secs(30),
                "chromedriver never ready"
            );
            std::thread::sleep(Duration::from_millis(100));
        };
        Browser {
            driver: self,
            session: value["sessionId"].as_str().unwrap().to_string(),
        }
    }
}

impl Browser<'_> {
    fn call(&self, method: &str, path: &str, body: Option<Value>) -> Value {
        self.driver
            .send(method, &format!("/session/{}{path}", self.session), body)
    }

    fn go(&self, url: &str) {
        self.call("POST", "/url", Some(json!({ "url": url })));
    }

    fn url(&self) -> String {
        self.call("GET", "/url", None).as_str().unwrap().to_string()
    }

    fn find(&self, css: &str) -> String {
        let value = self.call(
            "POST",
            "/element",
            Some(json!({"using": "css selector", "value": css})),
        );
        value[ELEMENT].as_str().unwrap().to_string()
    }

    /// Waits until an element matches `css` (a view that refreshes itself until it is ready).
    fn wait_for(&self, css: &str) {
        let started = Instant::now();
        loop {
            let found = self.call(
                "POST",
                "/elements",
                Some(json!({"using": "css selector", "value": css})),
            );
            if found.as_array().is_some_and(|found| !found.is_empty()) {
                return;
            }
            assert!(
                started.elapsed() < Duration::from_secs(60),
                "nothing matches {css} at {}",
                self.url()
            );
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    fn text(&self, css: &str) -> String {
        let element = self.find(css);
        self.call("GET", &format!("/element/{element}/text"), None)
            .as_str()
            .unwrap()
            .to_string()
    }

    fn click(&self, css: &str) {
        let element = self.find(css);
        self.call(
            "POST",
            &format!("/element/{element}/click"),
            Some(json!({})),
        );
    }

    /// Presses keys one after the other on whatever has the focus.
    fn press(&self, keys: &[&str]) {
        let actions: Vec<Value> = keys
            .iter()
            .flat_map(|key| {
                [
                    json!({"type": "keyDown", "value": key}),
                    json!({"type": "keyUp", "value": key}),
                ]
            })
            .collect();
        self.call(
            "POST",
            "/actions",
            Some(json!({"actions": [{"type": "key", "id": "keyboard", "actions": actions}]})),
        );
    }

    /// The `data-vertex` of the focused element, if it is a vertex.
    fn focused_vertex(&self) -> Option<usize> {
        let active = self.call("GET", "/element/active", None);
        let element = active[ELEMENT].as_str()?.to_string();
        self.call(
            "GET",
            &format!("/element/{element}/attribute/data-vertex"),
            None,
        )
        .as_str()
        .and_then(|value| value.parse().ok())
    }

    /// The `class` of the focused element.
    fn focused_class(&self) -> Option<String> {
        let active = self.call("GET", "/element/active", None);
        let element = active[ELEMENT].as_str()?.to_string();
        self.call("GET", &format!("/element/{element}/attribute/class"), None)
            .as_str()
            .map(str::to_string)
    }

    fn screenshot(&self, name: &str) {
        let Ok(directory) = std::env::var("TRAWL_CONSOLE_SCREENSHOTS") else {
            return;
        };
        let encoded = self.call("GET", "/screenshot", None);
        let png = decode_base64(encoded.as_str().unwrap());
        assert_eq!(&png[1..4], b"PNG");
        std::fs::write(
            std::path::Path::new(&directory).join(format!("{name}.png")),
            png,
        )
        .unwrap();
    }

    /// Waits until the page's URL ends with `ending`.
    fn wait_for_url(&self, ending: &str) -> String {
        let started = Instant::now();
        loop {
            let url = self.url();
            if url.ends_with(ending) {
                return url;
            }
            assert!(
                started.elapsed() < Duration::from_secs(20),
                "still at {url}, waiting for {ending}"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

impl Drop for Browser<'_> {
    fn drop(&mut self) {
        let _ = self
            .driver
            .agent
            .delete(&format!("{}/session/{}", self.driver.origin, self.session))
            .call();
    }
}

/// Standard base64 (screenshots come so).
fn decode_base64(text: &str) -> Vec<u8> {
    let value = |byte: u8| -> u32 {
        match byte {
            b'A'..=b'Z' => u32::from(byte - b'A'),
            b'a'..=b'z' => u32::from(byte - b'a') + 26,
            b'0'..=b'9' => u32::from(byte - b'0') + 52,
            b'+' => 62,
            b'/' => 63,
            other => panic!("{other} is not base64"),
        }
    };
    let bytes: Vec<u8> = text.bytes().filter(|byte| *byte != b'=').collect();
    let mut out = Vec::with_capacity(bytes.len() * 3 / 4);
    for chunk in bytes.chunks(4) {
        let mut group = 0u32;
        for (position, byte) in chunk.iter().enumerate() {
            group |= value(*byte) << (18 - 6 * position);
        }
        let produced = chunk.len() * 6 / 8;
        for index in 0..produced {
            out.push((group >> (16 - 8 * index)) as u8);
        }
    }
    out
}

#[test]
fn base64_decodes() {
    assert_eq!(decode_base64("aGVsbG8="), b"hello");
    assert_eq!(decode_base64("aGk="), b"hi");
    assert_eq!(decode_base64("YWJj"), b"abc");
}

fn stored_plan(location: &StoreLocation) -> (Plan, u32) {
    let store = Store::open_existing(location, None, true).unwrap();
    let settings = store.settings().unwrap().unwrap();
    (
        Plan::from_json(settings.plan_json.as_deref().unwrap()).unwrap(),
        settings.plan_generation,
    )
}

#[test]
fn the_console_is_driven_by_keyboard_and_saves_the_change_it_shows() {
    let path = crawled_file("browser");
    let location = StoreLocation::File(path.clone());
    let (plan, _) = stored_plan(&location);
    let console = serve(location.clone());
    let base = format!("http://{}", console.address());
    let profile =
        std::env::temp_dir().join(format!("trawl-console-chromium-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&profile);
    std::fs::create_dir_all(&profile).unwrap();
    let driver = chromedriver();
    let browser = driver.browser(&profile);

    // The overview, then every view through its keyboard shortcut.
    browser.go(&format!("{base}/"));
    browser.wait_for_url("/site/0/");
    assert_eq!(browser.text("#pages"), "250");
    browser.screenshot("overview");
    browser.press(&["a"]);
    browser.wait_for_url("/site/0/audit");
    browser.wait_for("#verdict");
    assert!(!browser.text("#verdict").is_empty());
    browser.screenshot("audit");
    browser.press(&["t"]);
    browser.wait_for_url("/site/0/threads");
    browser.screenshot("threads");
    browser.click("main table a");
    browser.wait_for_url("");
    assert!(browser.url().contains("/site/0/thread?url="));
    browser.screenshot("thread");
    browser.press(&["p"]);
    browser.wait_for_url("/site/0/plan");
    browser.screenshot("plan");

    // Arrow keys walk the graph: the first press focuses the portal, the next ones move.
    browser.press(&[ARROW_DOWN]);
    assert_eq!(browser.focused_vertex(), Some(0));
    browser.press(&[ARROW_DOWN]);
    let below = browser.focused_vertex().expect("a vertex below the portal");
    assert_ne!(below, 0);
    browser.press(&[ARROW_RIGHT]);
    let moved = browser.focused_vertex().expect("focus stays on a vertex");
    // Enter opens the focused vertex.
    browser.press(&[ENTER]);
    browser.wait_for_url(&format!("/site/0/vertex/{moved}?generation=0"));

    // Change a decision in the page of the arc's source vertex.
    let reached = plan_edit::reached_vertices(&plan);
    let arc = plan
        .arcs
        .iter()
        .position(|arc| {
            arc.decision == Decision::Skip
                && reached[arc.source]
                && arc.target.is_some_and(|target| !reached[target])
        })
        .expect("the learned plan skips an arc to a vertex it does not reach");
    let source = plan.arcs[arc].source;
    browser.go(&format!("{base}/site/0/vertex/{source}"));
    browser.screenshot("vertex");
    // A page of the vertex drawn with its regions, reached from the vertex by the keyboard.
    let mut tabs = 0;
    while browser.focused_class().as_deref() != Some("rendered") {
        browser.press(&[TAB]);
        tabs += 1;
        assert!(tabs < 80, "no drawn page within reach of the Tab key");
    }
    browser.press(&[ENTER]);
    browser.wait_for_url("");
    assert!(
        browser.url().contains("/site/0/rendered?url="),
        "{}",
        browser.url()
    );
    browser.wait_for("#rendering .region");
    browser.screenshot("rendered");
    browser.go(&format!("{base}/site/0/vertex/{source}"));
    browser.click(&format!("#arc-{arc} option[value='follow']"));
    browser.click("#preview");
    browser.wait_for_url("/site/0/preview");
    let verdict = browser.text("#verdict");
    browser.screenshot("preview");
    let changed = plan_edit::apply_changes(
        &plan,
        &[plan_edit::DecisionChange {
            arc,
            decision: Decision::Follow,
        }],
    )
    .unwrap();
    let expected = plan_edit::preview(&plan, &changed);
    assert!(
        verdict.starts_with(&format!(
            "{} → {} sampled pages",
            expected.pages_before, expected.pages_after
        )),
        "{verdict}"
    );
    let added: Vec<String> = expected
        .vertices_added
        .iter()
        .map(|vertex| vertex.to_string())
        .collect();
    let shown_added = browser.text("#added");
    for vertex in &added {
        assert!(
            shown_added.contains(vertex.as_str()),
            "{shown_added} lacks {vertex}"
        );
    }
    browser.click("#save");
    browser.wait_for_url("/site/0/plan?saved=1");
    assert_eq!(browser.text("#generation"), "1");
    assert!(browser.text("#saved").contains("generation 1"));

    // The store holds the plan the page showed: the one change, as a new generation.
    let (after, generation) = stored_plan(&location);
    assert_eq!(generation, 1);
    assert_eq!(after, changed);
    assert_eq!(after.arcs[arc].decision, Decision::Follow);

    // Freshness: this crawl was never watched, and says so; a watched one shows its figures,
    // and a board's own view is one link away.
    browser.press(&["f"]);
    browser.wait_for_url("/site/0/freshness");
    browser.wait_for("#not-watched");
    let watched_path = watched_file("browser-watched");
    let watched = serve(StoreLocation::File(watched_path.clone()));
    browser.go(&format!("http://{}/site/0/freshness", watched.address()));
    browser.wait_for("#spent");
    assert!(browser.text("#spent").contains("discovery"));
    browser.screenshot("freshness");
    browser.click("#boards tbody a");
    browser.wait_for_url("");
    assert!(browser.url().contains("/site/0/freshness/board/"));
    browser.wait_for("#polls");
    browser.screenshot("freshness-board");

    drop(browser);
    drop(driver);
    console.stop();
    watched.stop();
    let _ = std::fs::remove_dir_all(&profile);
    trawl_store::remove_database_files(&path);
    trawl_store::remove_database_files(&watched_path);
}
