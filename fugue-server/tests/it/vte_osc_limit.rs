//! The vendored vte's OSC cap (vendor/README.md, issue 11): a program's OSC string
//! used to be buffered without limit, so one `printf '\e]0;'` followed by gigabytes
//! grew the server by as much and could abort it.

use vt100::Parser;

#[derive(Default)]
struct Titles(Vec<Vec<u8>>);

impl vt100::Callbacks for Titles {
    fn set_window_title(&mut self, _: &mut vt100::Screen, title: &[u8]) {
        self.0.push(title.to_vec());
    }
}

fn parser(limit: usize) -> Parser<Titles> {
    let nz = |v| std::num::NonZeroU16::new(v).unwrap();
    let mut p = Parser::new_with_callbacks(nz(24), nz(80), 0, Titles::default());
    p.set_osc_limit(limit);
    p
}

#[test]
fn an_osc_over_the_limit_is_dropped_whole_and_its_buffer_released() {
    let mut p = parser(1024 * 1024);
    p.process(b"\x1b]0;");
    let chunk = vec![b'x'; 64 * 1024];
    for _ in 0..48 {
        p.process(&chunk);
        // Never more than the limit is held, however long the string grows.
        assert!(p.osc_capacity() <= 2 * 1024 * 1024, "{}", p.osc_capacity());
    }
    p.process(b"\x07");
    assert!(p.callbacks().0.is_empty(), "a truncated title was set");
    assert_eq!(p.osc_dropped(), 1);
    assert!(p.osc_capacity() <= 4096, "{} bytes kept", p.osc_capacity());
    // The next OSC that fits works, and text after the flood is text.
    p.process(b"\x1b]0;fine\x1b\\after");
    assert_eq!(p.callbacks().0, vec![b"fine".to_vec()]);
    assert!(p.screen().contents().contains("after"));
}

#[test]
fn an_osc_under_the_limit_keeps_working_and_a_large_one_gives_memory_back() {
    let mut p = parser(1024 * 1024);
    let title = vec![b't'; 512 * 1024];
    p.process(b"\x1b]2;");
    p.process(&title);
    p.process(b"\x07");
    assert_eq!(p.callbacks().0.len(), 1);
    assert_eq!(p.callbacks().0[0].len(), title.len());
    assert_eq!(p.osc_dropped(), 0);
    assert!(p.osc_capacity() <= 4096);
}

#[test]
fn the_default_limit_is_safe() {
    let nz = |v| std::num::NonZeroU16::new(v).unwrap();
    let mut p = Parser::new_with_callbacks(nz(5), nz(20), 0, Titles::default());
    p.process(b"\x1b]0;");
    p.process(&vec![b'y'; 3 * 1024 * 1024]);
    assert!(p.osc_capacity() <= 2 * 1024 * 1024);
    p.process(b"\x07");
    assert_eq!(p.osc_dropped(), 1);
}
