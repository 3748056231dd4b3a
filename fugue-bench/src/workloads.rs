//! Workloads: terminal output generated from a fixed seed, so every run (and every
//! multiplexer) sees exactly the same bytes.

use std::io::Write;
use std::path::{Path, PathBuf};

/// The line every throughput workload ends with. It is printed on a cleared screen
/// with the scroll region and style reset, so it is visible whatever came before.
pub const SENTINEL: &str = "FUGUE-BENCH-SENTINEL";

/// A small, fast generator (xorshift64*): deterministic for a seed, good enough for
/// picking words and colors.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed.max(1))
    }

    pub fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    /// A number in `0..n` (n > 0).
    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }

    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len() as u64) as usize]
    }

    pub fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }
}

/// The four kinds of output of the throughput workloads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Workload {
    /// Log lines, no escape sequences.
    Plain,
    /// Words in 16, 256 and truecolor SGR colors.
    Colored,
    /// Cursor-addressed repaints with scroll regions, as full-screen programs draw.
    Cursor,
    /// CJK, emoji and combining marks.
    Unicode,
}

impl Workload {
    pub const ALL: [Workload; 4] = [
        Workload::Plain,
        Workload::Colored,
        Workload::Cursor,
        Workload::Unicode,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Workload::Plain => "plain",
            Workload::Colored => "colored",
            Workload::Cursor => "cursor",
            Workload::Unicode => "unicode",
        }
    }

    /// Appends one unit of output (a line, or a burst of cursor moves).
    pub fn unit(self, rng: &mut Rng, out: &mut Vec<u8>) {
        match self {
            Workload::Plain => plain_line(rng, out),
            Workload::Colored => colored_line(rng, out),
            Workload::Cursor => cursor_burst(rng, out),
            Workload::Unicode => unicode_line(rng, out),
        }
    }
}

const WORDS: &[&str] = &[
    "request",
    "GET",
    "POST",
    "/api/v1/items",
    "/healthz",
    "status=200",
    "status=404",
    "latency",
    "ms",
    "user",
    "id",
    "cache",
    "miss",
    "hit",
    "worker",
    "queue",
    "flush",
    "compacted",
    "segment",
    "bytes",
    "retry",
    "timeout",
    "ok",
    "connection",
    "closed",
    "accepted",
    "shard",
    "replica",
    "leader",
    "commit",
    "index",
    "=",
    "->",
    "done",
];

const LEVELS: &[&str] = &["INFO ", "DEBUG", "WARN ", "ERROR", "TRACE"];

fn words(rng: &mut Rng, out: &mut Vec<u8>, min: u64, spread: u64) {
    let n = min + rng.below(spread);
    for i in 0..n {
        if i > 0 {
            out.push(b' ');
        }
        out.extend_from_slice(rng.pick(WORDS).as_bytes());
        if rng.chance(20) {
            let _ = write!(out, "={}", rng.below(100_000));
        }
    }
}

fn plain_line(rng: &mut Rng, out: &mut Vec<u8>) {
    let t = rng.below(86_400_000);
    let _ = write!(
        out,
        "2026-11-22T{:02}:{:02}:{:02}.{:03}Z {} worker-{} ",
        t / 3_600_000,
        t / 60_000 % 60,
        t / 1000 % 60,
        t % 1000,
        rng.pick(LEVELS),
        rng.below(16)
    );
    words(rng, out, 4, 20);
    out.extend_from_slice(b"\r\n");
}

fn colored_line(rng: &mut Rng, out: &mut Vec<u8>) {
    let n = 5 + rng.below(18);
    for i in 0..n {
        if i > 0 {
            out.push(b' ');
        }
        let word = rng.pick(WORDS).as_bytes();
        // Most words are colored, with a mix of the three color forms and attributes.
        match rng.below(10) {
            0..=2 => {
                let _ = write!(out, "\x1b[{}m", 31 + rng.below(7));
            }
            3..=5 => {
                let _ = write!(out, "\x1b[38;5;{}m", rng.below(256));
            }
            6..=8 => {
                let _ = write!(
                    out,
                    "\x1b[38;2;{};{};{}m",
                    rng.below(256),
                    rng.below(256),
                    rng.below(256)
                );
            }
            _ => {
                out.extend_from_slice(word);
                continue;
            }
        }
        if rng.chance(15) {
            out.extend_from_slice(b"\x1b[1m");
        }
        if rng.chance(10) {
            let _ = write!(out, "\x1b[48;5;{}m", rng.below(256));
        }
        out.extend_from_slice(word);
        out.extend_from_slice(b"\x1b[0m");
    }
    out.extend_from_slice(b"\r\n");
}

/// What a full-screen program sends to redraw parts of a 200x50 screen: positioned
/// writes with styles and erases, scroll regions scrolled up and down, inserted and
/// deleted lines.
fn cursor_burst(rng: &mut Rng, out: &mut Vec<u8>) {
    match rng.below(10) {
        0 => {
            let top = 1 + rng.below(30);
            let bottom = top + 5 + rng.below(15);
            let _ = write!(out, "\x1b[{top};{bottom}r\x1b[{bottom};1H");
            for _ in 0..1 + rng.below(4) {
                out.extend_from_slice(b"\n");
                words(rng, out, 3, 8);
            }
            let _ = write!(out, "\x1b[{top};1H\x1bM\x1bM\x1b[r");
        }
        1 => {
            let _ = write!(
                out,
                "\x1b[{};1H\x1b[{}L\x1b[{}M",
                1 + rng.below(50),
                1 + rng.below(3),
                1 + rng.below(3)
            );
        }
        _ => {
            let _ = write!(
                out,
                "\x1b[{};{}H\x1b[{}m",
                1 + rng.below(50),
                1 + rng.below(150),
                30 + rng.below(8)
            );
            words(rng, out, 1, 6);
            out.extend_from_slice(b"\x1b[0m\x1b[K");
        }
    }
}

fn unicode_line(rng: &mut Rng, out: &mut Vec<u8>) {
    let n = 10 + rng.below(60);
    let mut buf = [0u8; 4];
    for _ in 0..n {
        let c = match rng.below(20) {
            // CJK ideographs and Hangul: wide.
            0..=8 => char::from_u32(0x4e00 + rng.below(0x5000) as u32),
            9..=10 => char::from_u32(0xac00 + rng.below(0x2b00) as u32),
            // Emoji: wide, four bytes.
            11..=13 => char::from_u32(0x1f600 + rng.below(0x40) as u32),
            // A letter with one or two combining marks.
            14..=16 => {
                out.push(b'a' + rng.below(26) as u8);
                for _ in 0..1 + rng.below(2) {
                    let mark = char::from_u32(0x300 + rng.below(0x30) as u32).unwrap_or('\u{301}');
                    out.extend_from_slice(mark.encode_utf8(&mut buf).as_bytes());
                }
                continue;
            }
            // Greek, Cyrillic: narrow but not ASCII.
            17 => char::from_u32(0x3b1 + rng.below(24) as u32),
            18 => char::from_u32(0x430 + rng.below(32) as u32),
            _ => Some(' '),
        };
        let c = c.unwrap_or('?');
        out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
    }
    out.extend_from_slice(b"\r\n");
}

/// The bytes that end every throughput workload: reset everything, clear, sentinel.
pub fn sentinel_bytes() -> Vec<u8> {
    format!("\x1b[0m\x1b[r\x1b[?7h\x1b[H\x1b[2J{SENTINEL}\r\n").into_bytes()
}

/// Writes `bytes` bytes of a workload (whole units, then the sentinel) to `path`.
pub fn write_workload(path: &Path, w: Workload, bytes: u64, seed: u64) -> std::io::Result<()> {
    let mut rng = Rng::new(seed);
    let mut file = std::io::BufWriter::new(std::fs::File::create(path)?);
    let mut buf = Vec::with_capacity(1 << 16);
    let mut written = 0u64;
    while written < bytes {
        buf.clear();
        while buf.len() < 60_000 {
            w.unit(&mut rng, &mut buf);
        }
        let take = buf.len().min((bytes - written) as usize);
        // Cut on a unit boundary would be nicer, but a cut escape sequence or character
        // is harmless: the sentinel resets the terminal state.
        file.write_all(&buf[..take])?;
        written += take as u64;
    }
    file.write_all(&sentinel_bytes())?;
    file.flush()
}

/// Writes `lines` lines of plain or colored output (for filling history).
pub fn write_lines(path: &Path, w: Workload, lines: usize, seed: u64) -> std::io::Result<()> {
    let mut rng = Rng::new(seed);
    let mut buf = Vec::new();
    for _ in 0..lines {
        w.unit(&mut rng, &mut buf);
    }
    buf.extend_from_slice(&sentinel_bytes());
    std::fs::write(path, buf)
}

/// The generated files of one benchmark run, made once and shared by every sample.
pub struct Files {
    pub dir: PathBuf,
}

impl Files {
    pub fn new(dir: PathBuf) -> Files {
        Files { dir }
    }

    /// The throughput file of a workload at a size, generated on first use.
    pub fn workload(&self, w: Workload, bytes: u64) -> std::io::Result<PathBuf> {
        let path = self.dir.join(format!("{}-{bytes}.out", w.name()));
        if !path.exists() {
            write_workload(&path, w, bytes, 0x5eed_0000 + w as u64)?;
        }
        Ok(path)
    }

    /// A history-filling file: `lines` lines of plain or colored output.
    pub fn fill(&self, w: Workload, lines: usize) -> std::io::Result<PathBuf> {
        let path = self.dir.join(format!("fill-{}-{lines}.out", w.name()));
        if !path.exists() {
            write_lines(&path, w, lines, 0xf111 + w as u64)?;
        }
        Ok(path)
    }
}

/// `fugue-bench emit`: writes a workload's output forever, `rate` units a second (or
/// as fast as the terminal takes it when `rate` is 0). Used as the busy program of the
/// latency and many-pane workloads.
pub fn emit(w: Workload, rate: u32, seed: u64) -> std::io::Result<()> {
    let mut rng = Rng::new(seed);
    let mut out = std::io::stdout().lock();
    let mut buf = Vec::with_capacity(1 << 16);
    let start = std::time::Instant::now();
    let mut sent = 0u64;
    loop {
        buf.clear();
        if rate == 0 {
            while buf.len() < 16 * 1024 {
                w.unit(&mut rng, &mut buf);
            }
        } else {
            w.unit(&mut rng, &mut buf);
            sent += 1;
            let due = start + std::time::Duration::from_secs_f64(sent as f64 / f64::from(rate));
            if let Some(wait) = due.checked_duration_since(std::time::Instant::now()) {
                std::thread::sleep(wait);
            }
        }
        out.write_all(&buf)?;
        out.flush()?;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn workloads_are_deterministic_and_end_with_the_sentinel() {
        let dir = tempfile::tempdir().unwrap();
        for w in Workload::ALL {
            let a = dir.path().join("a");
            let b = dir.path().join("b");
            write_workload(&a, w, 100_000, 7).unwrap();
            write_workload(&b, w, 100_000, 7).unwrap();
            let (a, b) = (std::fs::read(a).unwrap(), std::fs::read(b).unwrap());
            assert_eq!(a, b, "{}", w.name());
            assert_eq!(a.len(), 100_000 + sentinel_bytes().len());
            assert!(a.ends_with(&sentinel_bytes()));
        }
    }

    #[test]
    fn colored_output_colors_most_words() {
        let mut rng = Rng::new(3);
        let mut out = Vec::new();
        for _ in 0..100 {
            Workload::Colored.unit(&mut rng, &mut out);
        }
        let text = String::from_utf8(out).unwrap();
        let words: usize = text.lines().map(|l| l.split(' ').count()).sum();
        let colored = text.matches("\x1b[0m").count();
        assert!(colored * 10 > words * 7, "{colored} of {words}");
        for form in ["\x1b[3", "\x1b[38;5;", "\x1b[38;2;"] {
            assert!(text.contains(form), "{form:?}");
        }
    }
}
