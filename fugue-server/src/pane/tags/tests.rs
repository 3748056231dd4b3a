use super::*;
use proptest::prelude::*;

fn feed(s: &mut Scanner, input: &[u8], out: &mut Vec<u8>) -> Scanned {
    s.feed(input, |b| out.extend_from_slice(b))
}

/// Output and tags of scanning `chunks` in turn, then releasing what is held.
fn scan_chunks(chunks: &[&[u8]]) -> (Vec<u8>, Vec<Tag>) {
    let mut s = Scanner::trusting(64 * 1024);
    let mut out = Vec::new();
    let mut tags = Vec::new();
    for c in chunks {
        tags.extend(feed(&mut s, c, &mut out).tags);
    }
    s.flush(|b| out.extend_from_slice(b));
    (out, tags)
}

#[test]
fn a_self_closing_tag_is_removed_and_returned() {
    let (out, tags) =
        scan_chunks(&[b"before <fugue:spawn command=\"cargo test\" direction='down'/> after"]);
    assert_eq!(out, b"before  after");
    assert_eq!(tags.len(), 1);
    assert_eq!(tags[0].name, "spawn");
    assert_eq!(tags[0].attr("command"), Some("cargo test"));
    assert_eq!(tags[0].attr("direction"), Some("down"));
    assert_eq!(tags[0].content, None);
    assert_eq!(tags[0].shape(), "<fugue:spawn command direction/>");
}

#[test]
fn content_tags_and_entities() {
    let (out, tags) = scan_chunks(&[
        b"<fugue:input pane=\"%3\" submit=\"true\">a &lt;b&gt; &amp; &quot;c&quot;\nline 2</fugue:input>!",
    ]);
    assert_eq!(out, b"!");
    assert_eq!(tags[0].content.as_deref(), Some("a <b> & \"c\"\nline 2"));
    assert_eq!(tags[0].attr("pane"), Some("%3"));
    assert_eq!(tags[0].shape(), "<fugue:input pane submit>…");
}

#[test]
fn a_tag_split_across_reads() {
    let (out, tags) = scan_chunks(&[b"x <fugue:not", b"ify>hello</fugue:no", b"tify> y"]);
    assert_eq!(out, b"x  y");
    assert_eq!(tags[0].content.as_deref(), Some("hello"));
}

#[test]
fn a_wrapped_tag_with_indentation_and_sgr_keeps_its_escapes() {
    let input = b"\x1b[1m<fugue:spawn com\x1b[0m\r\n    mand=\"make\x1b[32m all\"/>\x1b[0mz";
    let (out, tags) = scan_chunks(&[input]);
    assert_eq!(tags.len(), 1, "{out:?}");
    assert_eq!(tags[0].attr("command"), Some("make all"));
    assert_eq!(out, b"\x1b[1m\x1b[0m\x1b[32m\x1b[0mz");
    assert_eq!(tags[0].text, "<fugue:spawn command=\"make all\"/>");
}

#[test]
fn a_wrapped_end_tag_and_escapes_in_content() {
    let (out, tags) = scan_chunks(&[b"<fugue:notify>a<\x1b[1mb c\x1b[0m</fugue:no\r\n  tify>."]);
    assert_eq!(tags.len(), 1);
    assert_eq!(tags[0].content.as_deref(), Some("a<b c"));
    // Each escape sequence is kept once, even the one read while looking for the end.
    assert_eq!(out, b"\x1b[1m\x1b[0m.");
}

#[test]
fn malformed_and_unknown_tags_pass_through_unchanged() {
    for input in [
        &b"<fugue:frobnicate x=\"1\"/>"[..],
        b"<fugue:spawn command=unquoted/>",
        b"<fugue:spawn command=\"a<b\"/>",
        b"<fugue:spawn command=\"&bogus;\"/>",
        b"<fugue:notify>&bogus;</fugue:notify>",
        b"<fugue:notify>\xff</fugue:notify>",
        b"<fugue:spawncommand=\"x\"/>",
        b"<fugue:spawn\n  command=\"x\"/>",
        b"<fugue:spawn / >",
        b"a < b and <b>html</b> <fugue> <fugue:> <fugue:spawn",
        b"<fugue:notify>no end tag",
        b"<fugue:controlx/>",
        b"\x1b]0;<fugue:spawn command=\"x\"/>\x07",
    ] {
        let (out, tags) = scan_chunks(&[input]);
        assert!(tags.is_empty(), "{:?}", String::from_utf8_lossy(input));
        assert_eq!(out, input, "{:?}", String::from_utf8_lossy(input));
    }
}

#[test]
fn scanning_goes_on_from_the_byte_that_ended_a_candidate() {
    for (input, shown) in [
        (&b"<fugue:x<fugue:list/>"[..], &b"<fugue:x"[..]),
        (b"<<fugue:list/>", b"<"),
        (
            b"<fugue:spawn command=\"a<fugue:list/>",
            b"<fugue:spawn command=\"a",
        ),
        (b"<fugue:spawn <fugue:list/>", b"<fugue:spawn "),
        (
            b"<fugue:spawn command=\"&x;\"<fugue:list/>",
            b"<fugue:spawn command=\"&x;\"",
        ),
    ] {
        let (out, tags) = scan_chunks(&[input]);
        assert_eq!(tags.len(), 1, "{:?}", String::from_utf8_lossy(input));
        assert_eq!(tags[0].name, "list");
        assert_eq!(out, shown, "{:?}", String::from_utf8_lossy(input));
    }
}

#[test]
fn tags_do_not_nest() {
    // The first tag's content runs to its own end tag, tags inside included.
    let (out, tags) = scan_chunks(&[b"<fugue:notify>see <fugue:list/></fugue:notify>"]);
    assert_eq!(out, b"");
    assert_eq!(tags.len(), 1);
    assert_eq!(tags[0].content.as_deref(), Some("see <fugue:list/>"));
    // An unclosed one is shown as printed when released, with what it swallowed.
    let mut s = Scanner::trusting(1024);
    let mut out = Vec::new();
    let found = feed(&mut s, b"usage: <fugue:notify>msg <fugue:list/>", &mut out);
    assert!(found.tags.is_empty());
    assert_eq!(out, b"usage: ");
    assert!(s.has_pending());
    assert!(s.flush(|b| out.extend_from_slice(b)));
    assert_eq!(out, b"usage: <fugue:notify>msg <fugue:list/>");
    assert!(!s.has_pending());
    assert!(!s.flush(|_| panic!("nothing is held")));
}

#[test]
fn an_overlong_candidate_is_released() {
    let mut s = Scanner::trusting(100);
    let mut out = Vec::new();
    let mut input = b"<fugue:notify>".to_vec();
    input.extend(std::iter::repeat_n(b'x', 300));
    input.extend_from_slice(b"<fugue:list/>");
    let found = feed(&mut s, &input, &mut out);
    assert_eq!(found.overflows, 1);
    // After the release scanning goes on: the next tag is found.
    assert_eq!(found.tags.len(), 1);
    assert_eq!(out, &input[..input.len() - b"<fugue:list/>".len()]);
}

#[test]
fn an_overlong_candidate_inside_an_escape_sequence_keeps_the_escape_state() {
    let mut s = Scanner::trusting(64);
    let mut out = Vec::new();
    let mut input = b"<fugue:notify>\x1b]0;".to_vec();
    input.extend(std::iter::repeat_n(b'y', 100));
    // Still inside the OSC string: this `<` starts nothing.
    input.extend_from_slice(b"<fugue:list/>\x07");
    let found = feed(&mut s, &input, &mut out);
    assert_eq!(found.overflows, 1);
    assert!(found.tags.is_empty());
    assert_eq!(out, input);
}

#[test]
fn less_than_in_escape_sequences_is_not_a_candidate() {
    let (out, tags) = scan_chunks(&[b"\x1b[<u", b"<fugue:list/>"]);
    assert_eq!(out, b"\x1b[<u");
    assert_eq!(tags.len(), 1);
}

#[test]
fn every_split_point_gives_the_same_result() {
    let input: &[u8] =
        b"ab\x1b[31m<fugue:read pane=\"%1\" lines=\"5\"/>cd<fugue:notify>hi<x</fugue:notify>ef<x";
    let (whole, whole_tags) = scan_chunks(&[input]);
    for i in 0..input.len() {
        for j in i..input.len() {
            let (out, tags) = scan_chunks(&[&input[..i], &input[i..j], &input[j..]]);
            assert_eq!(tags, whole_tags, "split at {i},{j}");
            assert_eq!(out, whole, "split at {i},{j}");
        }
    }
    assert_eq!(whole_tags.len(), 2);
}

/// Inputs that made the earlier scanner quadratic: each must be read in a bounded number
/// of steps per byte, and quickly even in a debug build.
#[test]
fn adversarial_output_costs_linear_time() {
    const SIZE: usize = 3 << 20;
    let repeat = |unit: &[u8]| -> Vec<u8> { unit.iter().copied().cycle().take(SIZE).collect() };
    let mut long_value = b"<fugue:spawn command=\"".to_vec();
    long_value.extend(std::iter::repeat_n(b'v', SIZE));
    let mut long_wrap = b"<fugue:spawn".to_vec();
    long_wrap.extend(repeat(b"\r\n   "));
    for (name, input) in [
        ("unclosed content tags", repeat(b"<fugue:notify>")),
        ("almost end tags", repeat(b"<fugue:notify></fugue:notif")),
        ("less-thans", repeat(b"<")),
        ("prefixes", repeat(b"<fugue:spawn a=\"1\" ")),
        ("a long value", long_value),
        ("a long wrap", long_wrap),
        ("escapes in a tag", repeat(b"<fugue:notify>\x1b[1m<\x1b[0m")),
    ] {
        let start = std::time::Instant::now();
        let mut s = Scanner::trusting(64 * 1024);
        let mut shown = 0usize;
        let mut tags = 0;
        for chunk in input.chunks(4096) {
            tags += s.feed(chunk, |b| shown += b.len()).tags.len();
        }
        s.flush(|b| shown += b.len());
        let elapsed = start.elapsed();
        assert_eq!(tags, 0, "{name}");
        assert_eq!(shown, input.len(), "{name}");
        assert!(
            s.steps() <= 3 * input.len() as u64,
            "{name}: {} steps for {} bytes",
            s.steps(),
            input.len()
        );
        assert!(
            elapsed < std::time::Duration::from_secs(20),
            "{name}: {elapsed:?}"
        );
    }
}

#[test]
fn plain_text_is_not_looked_at_byte_by_byte() {
    let input: Vec<u8> = b"plain text without tags\r\n"
        .iter()
        .copied()
        .cycle()
        .take(1 << 20)
        .collect();
    let mut s = Scanner::trusting(64 * 1024);
    let mut pieces = 0;
    s.feed(&input, |_| pieces += 1);
    assert_eq!(pieces, 1, "shown in one piece");
    assert_eq!(s.steps(), 0);
    // Coloured text: only the tail of the last escape sequence of a chunk is stepped.
    let colored: Vec<u8> = b"\x1b[38;5;208mword\x1b[0m \x1b]8;;http://x\x1b\\link\x1b]8;;\x07\r\n"
        .iter()
        .copied()
        .cycle()
        .take(1 << 20)
        .collect();
    let mut s = Scanner::trusting(64 * 1024);
    let mut pieces = 0;
    for chunk in colored.chunks(4096) {
        s.feed(chunk, |_| pieces += 1);
    }
    assert_eq!(pieces, colored.len().div_ceil(4096));
    assert!(s.steps() < 20 * 256, "{} steps", s.steps());
}

fn piece() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        Just(b"<".to_vec()),
        Just(b"<fugue:".to_vec()),
        Just(b"<fugue:spawn".to_vec()),
        Just(b"<fugue:notify>".to_vec()),
        Just(b"</fugue:notify>".to_vec()),
        Just(b"</fugue:no".to_vec()),
        Just(b" command=\"".to_vec()),
        Just(b" id='x'".to_vec()),
        Just(b"\"".to_vec()),
        Just(b"/".to_vec()),
        Just(b">".to_vec()),
        Just(b"\x1b[".to_vec()),
        Just(b"\x1b[1m".to_vec()),
        Just(b"\x1b]".to_vec()),
        Just(b"\x07".to_vec()),
        Just(b"\r\n  ".to_vec()),
        Just(b"&amp;".to_vec()),
        Just(b"&".to_vec()),
        proptest::collection::vec(any::<u8>(), 0..8),
    ]
}

fn scan_at(input: &[u8], cuts: &[usize], max: usize) -> (Vec<u8>, Vec<Tag>, u32) {
    let mut cuts: Vec<usize> = cuts.iter().map(|c| (*c).min(input.len())).collect();
    cuts.sort_unstable();
    let mut s = Scanner::trusting(max);
    let mut out = Vec::new();
    let mut tags = Vec::new();
    let mut overflows = 0;
    let mut last = 0;
    for c in cuts.into_iter().chain([input.len()]) {
        let found = feed(&mut s, &input[last..c], &mut out);
        tags.extend(found.tags);
        overflows += found.overflows;
        last = c;
    }
    s.flush(|b| out.extend_from_slice(b));
    (out, tags, overflows)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]
    /// Without a complete tag, the scanner is invisible: every byte comes out as it went
    /// in, whatever the chunking; with tags, output only ever shrinks; how the output is
    /// cut into reads never changes what is found or shown; nothing ever panics.
    #[test]
    fn passthrough_is_exact_and_chunking_changes_nothing(
        pieces in proptest::collection::vec(piece(), 0..40),
        cuts in proptest::collection::vec(0usize..400, 0..6),
        small in any::<bool>(),
    ) {
        let input: Vec<u8> = pieces.concat();
        let max = if small { 16 } else { 256 };
        let (out, tags, overflows) = scan_at(&input, &cuts, max);
        if tags.is_empty() {
            prop_assert_eq!(&out, &input);
        } else {
            prop_assert!(out.len() < input.len());
        }
        let (whole, whole_tags, whole_overflows) = scan_at(&input, &[], max);
        prop_assert_eq!(out, whole);
        prop_assert_eq!(tags, whole_tags);
        prop_assert_eq!(overflows, whole_overflows);
    }

    /// A tag wrapped in arbitrary text is found, and the text around it is kept.
    #[test]
    fn a_tag_between_any_text_is_found(
        before in "[a-z <>/\"=]{0,20}",
        after in "[a-z <>/\"=]{0,20}",
    ) {
        // Text ending in an open candidate may swallow the tag: start it on a new line
        // after a character that cannot continue any candidate.
        let input = format!("{before}\x01<fugue:list id=\"t\"/>{after}");
        let (out, tags, _) = scan_at(input.as_bytes(), &[], 1024);
        prop_assert!(tags.iter().any(|t| t.attr("id") == Some("t")));
        let out = String::from_utf8_lossy(&out).into_owned();
        prop_assert!(out.starts_with(&format!("{before}\x01")), "{:?}", out);
    }
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1000))]
    /// What an agent prints comes back exactly: attributes and content, entities decoded,
    /// however the output is cut into reads.
    #[test]
    fn printed_tags_round_trip(
        attrs in proptest::collection::vec(("[a-z_][a-z0-9_-]{0,6}", "[ -~]{0,12}"), 0..4),
        content in proptest::option::of("[ -~\n]{0,30}"),
        cuts in proptest::collection::vec(0usize..200, 0..4),
    ) {
        let mut printed = String::from("<fugue:notify");
        for (k, v) in &attrs {
            printed.push_str(&format!(" {k}=\"{}\"", escape(v)));
        }
        match &content {
            None => printed.push_str("/>"),
            Some(c) => printed.push_str(&format!(">{}</fugue:notify>", escape(c))),
        }
        let (out, tags, _) = scan_at(printed.as_bytes(), &cuts, 64 * 1024);
        prop_assert!(out.is_empty(), "{:?}", String::from_utf8_lossy(&out));
        prop_assert_eq!(tags.len(), 1);
        prop_assert_eq!(&tags[0].attrs, &attrs);
        prop_assert_eq!(&tags[0].content, &content);
    }
}

const KEY: &str = "0123456789abcdef0123456789abcdef";

/// Output, tags and counts of scanning `chunks` with the pane key [`KEY`], then
/// releasing what is held.
fn scan_keyed(chunks: &[&[u8]]) -> (String, Vec<Tag>, Scanned) {
    let mut s = Scanner::new(1024);
    s.set_key(SidebandKey::new(KEY));
    let mut out = Vec::new();
    let mut all = Scanned::default();
    for c in chunks {
        let f = feed(&mut s, c, &mut out);
        all.tags.extend(f.tags);
        all.no_key += f.no_key;
        all.wrong_key += f.wrong_key;
    }
    s.flush(|b| out.extend_from_slice(b));
    let tags = std::mem::take(&mut all.tags);
    (String::from_utf8(out).unwrap(), tags, all)
}

#[test]
fn only_tags_with_the_pane_key_run() {
    let input = format!(
        "a <fugue:spawn command=\"x\"/> b <fugue:spawn key=\"{}\" command=\"y\"/> c <fugue:notify key=\"{KEY}\" id=\"n\">hi</fugue:notify> d",
        KEY.replace('0', "1")
    );
    let (out, tags, counts) = scan_keyed(&[input.as_bytes()]);
    assert_eq!(counts.no_key, 1);
    assert_eq!(counts.wrong_key, 1);
    assert_eq!(tags.len(), 1);
    assert_eq!(tags[0].name, "notify");
    assert_eq!(tags[0].attrs, vec![("id".to_string(), "n".to_string())]);
    assert!(!tags[0].text.contains(KEY), "{}", tags[0].text);
    assert_eq!(
        out,
        format!(
            "a <fugue:spawn command=\"x\"/> b <fugue:spawn key=\"{}\" command=\"y\"/> c  d",
            KEY.replace('0', "1")
        )
    );
    // Two keys, even if one is right, are a wrong key.
    let twice = format!("<fugue:list key=\"{KEY}\" key=\"nope\"/>");
    let (out, tags, counts) = scan_keyed(&[twice.as_bytes()]);
    assert!(tags.is_empty());
    assert_eq!(counts.wrong_key, 1);
    assert_eq!(out, twice.replace(KEY, &"*".repeat(32)));
}

#[test]
fn a_scanner_without_a_key_runs_nothing() {
    let mut s = Scanner::new(1024);
    let mut out = Vec::new();
    let f = feed(
        &mut s,
        b"<fugue:list/><fugue:list key=\"0123456789abcdef\"/>",
        &mut out,
    );
    assert!(f.tags.is_empty());
    assert_eq!((f.no_key, f.wrong_key), (1, 1));
    assert_eq!(out, b"<fugue:list/><fugue:list key=\"0123456789abcdef\"/>");
}

#[test]
fn the_key_never_reaches_the_screen_in_text_released_as_not_a_tag() {
    let stars = "*".repeat(32);
    // A keyed tag spoilt by a bad attribute after the key.
    let bad = format!("<fugue:spawn key=\"{KEY}\" command=unquoted/>!");
    // A keyed tag inside an unclosed tag's content (held, then released when quiet).
    let inside = format!("<fugue:notify>x <fugue:list key=\"{KEY}\"/> y");
    // A keyed tag cut short by a stray `<` in its value, and one cut by a quiet moment.
    let cut = format!("<fugue:list key=\"{}<b", &KEY[..12]);
    let quiet = format!("<fugue:list key=\"{}", &KEY[..20]);
    for (input, want) in [
        (&bad, bad.replace(KEY, &stars)),
        (&inside, inside.replace(KEY, &stars)),
        (&cut, format!("<fugue:list key=\"{}<b", "*".repeat(12))),
        (&quiet, format!("<fugue:list key=\"{}", "*".repeat(20))),
    ] {
        // Whole, and cut at every byte: the candidate may begin in an earlier read.
        for at in 0..=input.len() {
            let (out, tags, _) = scan_keyed(&[&input.as_bytes()[..at], &input.as_bytes()[at..]]);
            assert!(tags.is_empty(), "{input:?} at {at}");
            assert_eq!(out, want, "{input:?} at {at}");
        }
    }
}

#[test]
fn a_keyed_tag_is_found_at_any_split_point() {
    let input = format!("x<fugue:notify id=\"a\" key=\"{KEY}\">hello</fugue:notify>y");
    for at in 0..=input.len() {
        let (out, tags, counts) = scan_keyed(&[&input.as_bytes()[..at], &input.as_bytes()[at..]]);
        assert_eq!(out, "xy", "at {at}");
        assert_eq!(tags.len(), 1, "at {at}");
        assert_eq!(counts.no_key + counts.wrong_key, 0);
        assert_eq!(tags[0].attr("key"), None);
    }
}

#[test]
fn a_key_read_as_an_attribute_name_is_hidden_too() {
    // Hex digits make an attribute name: `<fugue:list aKEY/>` holds it in no value.
    let input = format!("<fugue:list a{KEY}/>");
    let (out, tags, _) = scan_keyed(&[input.as_bytes()]);
    assert!(tags.is_empty());
    assert_eq!(out, format!("<fugue:list a{}/>", "*".repeat(32)));
}

/// Issue 18: a tag alone on its line takes its line break with it, in one read or
/// across reads; a tag among other text, or one whose escape sequences stay on the
/// screen, leaves the line as it was.
#[test]
fn a_tag_alone_on_its_line_leaves_no_empty_line() {
    let tag: &[u8] = b"<fugue:notify>hi</fugue:notify>";
    let whole = [b"a\r\n".as_slice(), tag, b"\r\nb"].concat();
    assert_eq!(scan_chunks(&[&whole]).0, b"a\r\nb");
    // The first thing a pane prints, with a bare \n, and split at every byte.
    let first = [tag, b"\nb"].concat();
    assert_eq!(scan_chunks(&[&first]).0, b"b");
    let pieces: Vec<&[u8]> = whole.chunks(1).collect();
    assert_eq!(scan_chunks(&pieces).0, b"a\r\nb");
    // Text before it on the line, or after it: the line stays.
    let inline = [b"a ".as_slice(), tag, b"\r\nb"].concat();
    assert_eq!(scan_chunks(&[&inline]).0, b"a \r\nb");
    let after = [b"a\r\n".as_slice(), tag, b" x\r\nb"].concat();
    assert_eq!(scan_chunks(&[&after]).0, b"a\r\n x\r\nb");
    // Two in a row, each alone: both lines go.
    let two = [b"a\r\n".as_slice(), tag, b"\r\n", tag, b"\r\nb"].concat();
    assert_eq!(scan_chunks(&[&two]).0, b"a\r\nb");
    // Colour inside the tag stays on the screen, and so does its line.
    let coloured = b"a\r\n<fugue:notify>\x1b[1mhi</fugue:notify>\r\nb";
    assert_eq!(scan_chunks(&[coloured]).0, b"a\r\n\x1b[1m\r\nb");
}

/// Claude Code's renderer writes a run of blanks as a jump to a column: the tag it
/// shows is the tag the model wrote, key and all (issue 27's reproduction).
#[test]
fn blanks_drawn_as_cursor_jumps_are_blanks() {
    let input = format!(
        "<fugue:spawn\x1b[14Gkey=\"{KEY}\"\x1b[54Gid=\"j\"\x1b[71Gcommand=\"sleep\x1b[86G101\"/>\n"
    );
    let (out, tags, counts) = scan_keyed(&[input.as_bytes()]);
    assert_eq!((counts.no_key, counts.wrong_key), (0, 0));
    assert_eq!(tags.len(), 1, "{out:?}");
    assert_eq!(tags[0].attr("id"), Some("j"));
    assert_eq!(tags[0].attr("command"), Some("sleep 101"));
    // The moves stay on screen where the tag was; the key never does.
    assert!(!out.contains(KEY), "{out:?}");
    assert!(out.contains("\x1b[86G"), "{out:?}");
    // CUF reads the same; a move that is no blank (up, an SGR) does not.
    let forward = format!("<fugue:list\x1b[3Ckey=\"{KEY}\"/>");
    assert_eq!(scan_keyed(&[forward.as_bytes()]).1.len(), 1);
    let up = format!("<fugue:list\x1b[Akey=\"{KEY}\"/>");
    assert_eq!(scan_keyed(&[up.as_bytes()]).1.len(), 0);
    // Split across reads, mid-escape.
    let (a, b) = input.as_bytes().split_at(input.find("[54").unwrap() + 2);
    assert_eq!(scan_keyed(&[a, b]).1.len(), 1);
}

/// A jump where the grammar wants no blank releases the candidate as printed.
#[test]
fn a_jump_inside_a_name_is_shown_as_printed() {
    let input = b"<fugue:sp\x1b[5Gawn/>x";
    let (out, tags) = scan_chunks(&[input]);
    assert!(tags.is_empty());
    assert_eq!(out, input);
}
