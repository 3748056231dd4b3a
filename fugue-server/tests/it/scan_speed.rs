//! What the sideband scanner costs: the same output through a pane with and without
//! scanning. Run with `cargo test --release -p fugue-server --test it scan_speed -- --ignored --nocapture`.

use fugue_server::pane::state::PaneState;
use fugue_server::pane::tags::{Scanner, SidebandKey};
use std::time::{Duration, Instant};

const SIZE: usize = 20 << 20;

fn plain() -> Vec<u8> {
    let line = b"The quick brown fox jumps over the lazy dog; 0123456789 abcdefghijklmnopqrstu\r\n";
    line.iter().copied().cycle().take(SIZE).collect()
}

fn colored() -> Vec<u8> {
    let mut out = Vec::with_capacity(SIZE + 64);
    let mut n = 0u32;
    while out.len() < SIZE {
        for w in ["fn", "main()", "{", "let", "x", "=", "42;", "}"] {
            out.extend_from_slice(format!("\x1b[38;5;{}m{w}\x1b[0m ", n % 256).as_bytes());
            n += 1;
        }
        out.extend_from_slice(b"\r\n");
    }
    out
}

/// Text with `<` in it (HTML, comparisons) that is never a tag.
fn angled() -> Vec<u8> {
    let line = b"if a < b { <div class=\"x\">hello</div> } <p>x</p> <b>bold</b> x<y\r\n";
    line.iter().copied().cycle().take(SIZE).collect()
}

/// Documentation an agent displays, with a complete tag without a key on every line:
/// each is released as text, with the key looked for in it.
fn unkeyed_tags() -> Vec<u8> {
    let line = b"run <fugue:spawn id=\"build\" command=\"make -j8\"/> to build, then look\r\n";
    line.iter().copied().cycle().take(SIZE).collect()
}

/// A near miss on every line: text the scanner has to read as far as the tag name.
fn near_misses() -> Vec<u8> {
    let line = b"documentation quoting <fugue:nope/> and <fugue:spawn, not tags at all\r\n";
    line.iter().copied().cycle().take(SIZE).collect()
}

/// A pane's key, as every scanned pane has one.
fn key() -> Option<SidebandKey> {
    SidebandKey::new("0123456789abcdef0123456789abcdef")
}

fn through_pane(input: &[u8], scan: bool) -> Duration {
    let mut p = PaneState::new(200, 50, 10_000);
    p.set_sideband(64 * 1024, key());
    let start = Instant::now();
    for chunk in input.chunks(4096) {
        p.process_scanning(chunk, scan);
    }
    start.elapsed()
}

/// The scanner alone, with a key (as in a pane) or without (no key to hide in
/// released text: what it cost before keys).
fn scanner_alone(input: &[u8], keyed: bool) -> Duration {
    let mut s = Scanner::new(64 * 1024);
    if keyed {
        s.set_key(key());
    }
    let mut shown = 0usize;
    let start = Instant::now();
    for chunk in input.chunks(4096) {
        s.feed(chunk, |b| shown += b.len());
    }
    let t = start.elapsed();
    assert!(shown > 0);
    t
}

#[test]
#[ignore]
fn scanner_cost_against_pane_throughput() {
    for (name, input) in [
        ("plain", plain()),
        ("colored", colored()),
        ("angled", angled()),
        ("near-miss", near_misses()),
        ("unkeyed", unkeyed_tags()),
    ] {
        // Warm up, then best of three.
        through_pane(&input[..1 << 20], true);
        let best = |scan| (0..5).map(|_| through_pane(&input, scan)).min().unwrap();
        let off = best(false);
        let on = best(true);
        let alone = (0..5).map(|_| scanner_alone(&input, true)).min().unwrap();
        let unkeyed = (0..5).map(|_| scanner_alone(&input, false)).min().unwrap();
        let mib = input.len() as f64 / (1 << 20) as f64;
        println!(
            "{name:8} pane without scanner {:7.1} MiB/s, with {:7.1} MiB/s ({:+.1}%); scanner alone {:8.1} MiB/s = {:.1}% of the pane's time; without a key {:8.1} MiB/s",
            mib / off.as_secs_f64(),
            mib / on.as_secs_f64(),
            (on.as_secs_f64() / off.as_secs_f64() - 1.0) * 100.0,
            mib / alone.as_secs_f64(),
            alone.as_secs_f64() / off.as_secs_f64() * 100.0,
            mib / unkeyed.as_secs_f64(),
        );
    }
}

#[test]
#[ignore]
fn adversarial_unclosed_tags() {
    for size in [100_000usize, 300_000] {
        let input: Vec<u8> = b"<fugue:notify>"
            .iter()
            .copied()
            .cycle()
            .take(size)
            .collect();
        let mut p = PaneState::new(200, 50, 10_000);
        p.set_sideband(64 * 1024, key());
        let start = Instant::now();
        for chunk in input.chunks(4096) {
            p.process_scanning(chunk, true);
        }
        println!("{size} bytes of <fugue:notify>: {:?}", start.elapsed());
    }
}
