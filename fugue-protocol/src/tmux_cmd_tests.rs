use super::*;
use proptest::prelude::*;

struct TestEnv;

impl Env for TestEnv {
    fn var(&self, name: &str) -> Option<String> {
        match name {
            "HOME" => Some("/home/u".into()),
            "FOO" => Some("foo value".into()),
            _ => None,
        }
    }
}

fn p(s: &str) -> Vec<Vec<String>> {
    parse(s, &TestEnv).unwrap_or_else(|e| panic!("{s:?}: {e}"))
}

fn v(words: &[&[&str]]) -> Vec<Vec<String>> {
    words
        .iter()
        .map(|w| w.iter().map(|s| s.to_string()).collect())
        .collect()
}

#[test]
fn words_quotes_and_escapes() {
    assert_eq!(p("split-window -h"), v(&[&["split-window", "-h"]]));
    assert_eq!(
        p("  bind  '\"' split-window  "),
        v(&[&["bind", "\"", "split-window"]])
    );
    assert_eq!(
        p(r#"display "a \"b\" \$x\tz""#),
        v(&[&["display", "a \"b\" $x\tz"]])
    );
    assert_eq!(p(r"bind \; last-pane"), v(&[&["bind", ";", "last-pane"]]));
    assert_eq!(p("a 'it''s'"), v(&[&["a", "its"]]));
    assert_eq!(p("a b'c d'e"), v(&[&["a", "bc de"]]));
    assert_eq!(p("a ''"), v(&[&["a", ""]]));
    assert_eq!(p(r#"a "\u00e9""#), v(&[&["a", "é"]]));
    assert_eq!(p(r"a x\tb"), v(&[&["a", "x\tb"]]));
}

#[test]
fn sequences_comments_and_continuations() {
    assert_eq!(p("a; b ;c"), v(&[&["a"], &["b"], &["c"]]));
    assert_eq!(p("a \\; b"), v(&[&["a", ";", "b"]]));
    assert_eq!(p("a # comment ; b"), v(&[&["a"]]));
    assert_eq!(p("a#b"), v(&[&["a#b"]]));
    assert_eq!(p("a \\\n b"), v(&[&["a", "b"]]));
    assert_eq!(p("a\nb"), v(&[&["a"], &["b"]]));
    assert_eq!(p(";;"), Vec::<Vec<String>>::new());
}

#[test]
fn blocks_are_one_argument() {
    assert_eq!(
        p("bind x { split-window -h ; new-window }"),
        v(&[&["bind", "x", "split-window -h ; new-window"]])
    );
    assert_eq!(
        p("if -F 1 { a { b } } { c }"),
        v(&[&["if", "-F", "1", "a { b }", "c"]])
    );
    assert!(parse("bind x { a", &TestEnv).is_err());
    // `{` inside a word is a character.
    assert_eq!(p("a x{y}"), v(&[&["a", "x{y}"]]));
}

#[test]
fn environment_and_home() {
    assert_eq!(p("a $FOO"), v(&[&["a", "foo value"]]));
    assert_eq!(p("a \"${FOO}!\""), v(&[&["a", "foo value!"]]));
    assert_eq!(p("a $UNSET b"), v(&[&["a", "b"]]));
    assert_eq!(p("source ~/x.conf"), v(&[&["source", "/home/u/x.conf"]]));
    assert_eq!(p("a ~user b~"), v(&[&["a", "~user", "b~"]]));
    assert_eq!(p("a '$FOO'"), v(&[&["a", "$FOO"]]));
    // A name starts with a letter or `_`, as tmux's lexer has it: session ids stay.
    assert_eq!(p("show -t $1 @x"), v(&[&["show", "-t", "$1", "@x"]]));
    assert_eq!(p("a $ b$"), v(&[&["a", "$", "b$"]]));
    assert_eq!(p("a $_X"), v(&[&["a"]]));
    let long = format!("a ${}", "N".repeat(MAX_VAR_NAME + 1));
    assert!(parse(&long, &TestEnv).is_err());
}

#[test]
fn errors_name_the_problem() {
    assert_eq!(parse("a 'b", &NoEnv).unwrap_err().0, "missing closing '");
    assert_eq!(parse("a \"b", &NoEnv).unwrap_err().0, "missing closing \"");
    assert!(parse(&"a".repeat(MAX_LINE + 1), &NoEnv).is_err());
}

#[test]
fn files_report_lines_and_go_on() {
    let text = "# comment\nbind a b\nbind 'x\n\nbind c \\\n  d\n%if 0\nbind e f\n%else\nbind g h\n%endif\nbind x {\n  a\n  b\n}\n";
    let (cmds, errors) = parse_file(text, &TestEnv);
    let got: Vec<(usize, Vec<String>)> = cmds.into_iter().map(|c| (c.line, c.argv)).collect();
    let s = |w: &[&str]| w.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    assert_eq!(
        got,
        vec![
            (2, s(&["bind", "a", "b"])),
            (5, s(&["bind", "c", "d"])),
            (10, s(&["bind", "g", "h"])),
            (12, s(&["bind", "x", "a\n  b"])),
        ]
    );
    assert_eq!(errors, vec![(3, "missing closing '".to_string())]);
}

#[test]
fn escape_is_tmuxs() {
    // Each as tmux 3.3a's list-keys prints it (checked against tmux).
    for (word, printed) in [
        ("a$b", r#""a\$b""#),
        ("a\\b", r"a\\b"),
        ("~x", r"\~x"),
        ("a\"b c", r#""a\"b c""#),
        ("it's", r#""it's""#),
        ("", "''"),
        ("é ü", "\"é ü\""),
        ("a\tb", r"a\tb"),
        ("~", r"\~"),
        ("#", r"\#"),
        ("a\"b", "'a\"b'"),
        ("\"", "\\\""),
        (";", r"\;"),
        ("M-{", "\"M-{\""),
        ("(repeat)", "(repeat)"),
        ("kill-pane #P? (y/n)", "\"kill-pane #P? (y/n)\""),
    ] {
        assert_eq!(escape(word), printed, "{word:?}");
    }
}

#[test]
fn sequences_split_at_semicolon_words() {
    let args: Vec<String> = ["split-window", "-h", ";", "new-window"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    assert_eq!(
        split_sequence(&args, &NoEnv).unwrap(),
        v(&[&["split-window", "-h"], &["new-window"]])
    );
    let one = vec!["split-window -h ; new-window".to_string()];
    assert_eq!(
        split_sequence(&one, &NoEnv).unwrap(),
        v(&[&["split-window", "-h"], &["new-window"]])
    );
}

/// tmux's config assignments: `NAME=VALUE` sets a global environment variable,
/// `%hidden NAME=VALUE` one kept out of new programs; both are seen by the file's
/// later `$NAME`s (a large config of the issue had 107 of them).
#[test]
fn assignments_set_the_environment_and_later_lines_see_them() {
    let text = "THEME=dark\n%hidden ACCENT=\"light blue\"\nset -g @x \"$THEME-$ACCENT\"\nx=1 y=2\n";
    let (cmds, errors) = parse_file(text, &NoEnv);
    let argvs: Vec<Vec<String>> = cmds.into_iter().map(|c| c.argv).collect();
    assert_eq!(
        argvs,
        v(&[
            &["set-environment", "-g", "THEME", "dark"],
            &["set-environment", "-gh", "ACCENT", "light blue"],
            &["set", "-g", "@x", "dark-light blue"],
            // Two words are a command (an unknown one), as tmux's parser has them.
            &["x=1", "y=2"],
        ])
    );
    assert!(errors.is_empty(), "{errors:?}");
    // Not an assignment: no valid name before `=`.
    let (cmds, _) = parse_file("=x\n1A=b\n", &NoEnv);
    assert!(cmds.iter().all(|c| c.argv[0] != "set-environment"));
    let (_, errors) = parse_file("%hidden nothing\n", &NoEnv);
    assert_eq!(errors.len(), 1);
}

proptest! {
    /// Whatever the words, tmux's printed form reads back as the same words.
    #[test]
    fn printed_words_parse_back(words in prop::collection::vec(".{0,12}", 1..6)) {
        let line = words.iter().map(|w| escape(w)).collect::<Vec<_>>().join(" ");
        let got = parse(&line, &NoEnv).map_err(|e| TestCaseError::fail(format!("{line:?}: {e}")))?;
        prop_assert_eq!(got, vec![words], "{:?}", line);
    }

    /// A printed sequence splits back into its commands.
    #[test]
    fn printed_sequences_split_back(
        cmds in prop::collection::vec(
            prop::collection::vec("[a-z-]{1,6}|.{0,6}", 1..4).prop_filter("a ; word is a separator", |c| !c.iter().any(|w| w == ";")),
            2..4,
        )
    ) {
        let line = print_sequence(&cmds);
        let words: Vec<String> = parse(&line, &NoEnv)
            .map_err(|e| TestCaseError::fail(format!("{line:?}: {e}")))?
            .concat();
        prop_assert_eq!(split_sequence(&words, &NoEnv).map_err(|e| TestCaseError::fail(e.0))?, cmds);
    }

    /// Arbitrary text never panics the parser.
    #[test]
    fn any_text_parses_or_errs(text in ".{0,80}") {
        let _ = parse(&text, &NoEnv);
        let _ = parse_file(&text, &NoEnv);
    }
}
