//! A tiny loopback HTTP server for the tests, and encoders for the bodies it serves.
//!
//! Each server runs on its own thread, answers one request per connection (always with
//! `Connection: close`, so the client opens a new connection for each request) and stops when
//! the test collects it with [`Server::finish`], or after a deadline if a test forgets.

#![allow(dead_code)]

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// The longest any test server lives, so a broken test cannot leave a thread behind forever.
const SERVER_LIFETIME: Duration = Duration::from_secs(30);

/// The path recorded for a connection that opened with a TLS handshake instead of HTTP.
pub const TLS_HANDSHAKE: &str = "(TLS handshake)";

/// One request as the server saw it.
#[derive(Debug, Clone)]
pub struct Seen {
    pub path: String,
    pub headers: Vec<(String, String)>,
}

impl Seen {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(header, _)| header.eq_ignore_ascii_case(name))
            .map(|(_, value)| value.as_str())
    }
}

/// What the server does with a request.
pub enum Reply {
    /// Writes these bytes (a whole HTTP response) and closes.
    Raw(Vec<u8>),
    /// Never answers; waits for the client to give up and close.
    Silence,
}

/// A running test server.
pub struct Server {
    pub port: u16,
    stop: Arc<AtomicBool>,
    thread: JoinHandle<Vec<Seen>>,
}

impl Server {
    /// `http://127.0.0.1:PORT` followed by `path`.
    pub fn url(&self, path: &str) -> String {
        format!("http://127.0.0.1:{}{path}", self.port)
    }

    /// Stops the server and returns the requests it saw, in order.
    pub fn finish(self) -> Vec<Seen> {
        self.stop.store(true, Ordering::SeqCst);
        self.thread.join().expect("the test server panicked")
    }
}

/// Starts a server answering every request with `respond`.
pub fn serve(respond: impl Fn(&Seen) -> Reply + Send + 'static) -> Server {
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind a loopback port");
    listener.set_nonblocking(true).unwrap();
    let port = listener.local_addr().unwrap().port();
    let stop = Arc::new(AtomicBool::new(false));
    let stop_seen = stop.clone();
    let thread = std::thread::spawn(move || {
        let started = Instant::now();
        let mut seen = Vec::new();
        while !stop_seen.load(Ordering::SeqCst) && started.elapsed() < SERVER_LIFETIME {
            match listener.accept() {
                Ok((stream, _)) => {
                    if let Some(request) = answer(stream, &respond) {
                        seen.push(request);
                    }
                }
                Err(error) if error.kind() == std::io::ErrorKind::WouldBlock => {
                    std::thread::sleep(Duration::from_millis(2));
                }
                Err(error) => panic!("accept failed: {error}"),
            }
        }
        seen
    });
    Server { port, stop, thread }
}

fn answer(mut stream: TcpStream, respond: &impl Fn(&Seen) -> Reply) -> Option<Seen> {
    stream.set_nonblocking(false).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(5)))
        .unwrap();
    let mut head = Vec::new();
    let mut byte = [0u8; 1];
    while !head.ends_with(b"\r\n\r\n") {
        match stream.read(&mut byte) {
            Ok(1) => head.push(byte[0]),
            _ => return None,
        }
        // A TLS handshake record (a client asking for https): it will never end in a blank
        // line, so it is answered at once, in plain HTTP, as a misconfigured server would.
        if head == [0x16] {
            let seen = Seen {
                path: TLS_HANDSHAKE.to_string(),
                headers: Vec::new(),
            };
            if let Reply::Raw(bytes) = respond(&seen) {
                let _ = stream.write_all(&bytes);
            }
            return Some(seen);
        }
    }
    let head = String::from_utf8_lossy(&head).into_owned();
    let mut lines = head.split("\r\n");
    let path = lines.next()?.split(' ').nth(1)?.to_string();
    let headers = lines
        .filter_map(|line| line.split_once(':'))
        .map(|(name, value)| (name.trim().to_string(), value.trim().to_string()))
        .collect();
    let seen = Seen { path, headers };
    match respond(&seen) {
        Reply::Raw(bytes) => {
            // The client may hang up early (a body over its cap); that is not the server's error.
            let _ = stream.write_all(&bytes);
            let _ = stream.flush();
        }
        Reply::Silence => {
            let mut rest = Vec::new();
            let _ = stream.read_to_end(&mut rest);
        }
    }
    Some(seen)
}

/// A complete response with a `Content-Length`.
pub fn response(status: u16, headers: &[(&str, &str)], body: &[u8]) -> Reply {
    let mut bytes = head(status, headers);
    bytes.extend_from_slice(format!("Content-Length: {}\r\n\r\n", body.len()).as_bytes());
    bytes.extend_from_slice(body);
    Reply::Raw(bytes)
}

/// A complete response with a chunked body (no `Content-Length`).
pub fn chunked_response(status: u16, headers: &[(&str, &str)], body: &[u8]) -> Reply {
    let mut bytes = head(status, headers);
    bytes.extend_from_slice(b"Transfer-Encoding: chunked\r\n\r\n");
    for chunk in body.chunks(1000) {
        bytes.extend_from_slice(format!("{:x}\r\n", chunk.len()).as_bytes());
        bytes.extend_from_slice(chunk);
        bytes.extend_from_slice(b"\r\n");
    }
    bytes.extend_from_slice(b"0\r\n\r\n");
    Reply::Raw(bytes)
}

fn head(status: u16, headers: &[(&str, &str)]) -> Vec<u8> {
    let mut bytes = format!("HTTP/1.1 {status} Whatever\r\nConnection: close\r\n").into_bytes();
    for (name, value) in headers {
        bytes.extend_from_slice(format!("{name}: {value}\r\n").as_bytes());
    }
    bytes
}

/// `data` gzip-compressed.
pub fn gzip(data: &[u8]) -> Vec<u8> {
    let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    encoder.write_all(data).unwrap();
    encoder.finish().unwrap()
}

/// `data` as a valid brotli stream made of stored (uncompressed) meta-blocks, RFC 7932 §9.2.
///
/// The tests need brotli bodies the client must decode, not good compression, and writing the
/// stored form by hand spares the tests a brotli encoder dependency.
pub fn brotli_stored(data: &[u8]) -> Vec<u8> {
    let mut bits = BitWriter::default();
    // WBITS: a single 0 bit selects a 64 KiB window.
    bits.put(0, 1);
    for block in data.chunks(1 << 15) {
        bits.put(0, 1); // ISLAST: no
        bits.put(0, 2); // MNIBBLES: four nibbles of length
        bits.put(block.len() as u64 - 1, 16); // MLEN - 1
        bits.put(1, 1); // ISUNCOMPRESSED: yes, then the raw bytes from the next byte boundary
        bits.align();
        bits.bytes.extend_from_slice(block);
    }
    bits.put(1, 1); // ISLAST
    bits.put(1, 1); // ISLASTEMPTY
    bits.align();
    bits.bytes
}

/// Writes bits least significant first, as brotli reads them.
#[derive(Default)]
struct BitWriter {
    bytes: Vec<u8>,
    pending: u64,
    pending_bits: u32,
}

impl BitWriter {
    fn put(&mut self, value: u64, count: u32) {
        self.pending |= value << self.pending_bits;
        self.pending_bits += count;
        while self.pending_bits >= 8 {
            self.bytes.push(self.pending as u8);
            self.pending >>= 8;
            self.pending_bits -= 8;
        }
    }

    fn align(&mut self) {
        if self.pending_bits > 0 {
            self.bytes.push(self.pending as u8);
            self.pending = 0;
            self.pending_bits = 0;
        }
    }
}

/// A port on which nothing listens (bound, then released).
pub fn closed_port() -> u16 {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    listener.local_addr().unwrap().port()
}
