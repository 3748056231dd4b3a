//! The fake agent answers a task read from its input. (This test also makes `cargo test
//! --workspace` build the binary, which fugue's end-to-end tests run in panes.)

use std::io::Write;
use std::process::{Command, Stdio};

#[test]
fn it_answers_each_task_and_ends_with_its_input() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_fugue-fake-agent"))
        .args(["--no-report", "--work-ms", "20"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("start the fake agent");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(b"first task\r\x1b[200~two\nlines\x1b[201~\r")
        .expect("write");
    let out = child.wait_with_output().expect("wait");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("answer: done(first task)"), "{text}");
    assert!(text.contains("answer: done(two\r\nlines)"), "{text}");
    assert!(out.status.success());
}
