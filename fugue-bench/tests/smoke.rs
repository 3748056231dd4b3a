//! The benchmark harness at smoke size, so the README's test command keeps every
//! section of it running (it checks that the benchmark runs and reports, not how fast
//! anything is: speed is compared by hand, docs/performance.md). The bench finds
//! `fugue` and `fugue-server` next to itself, which `cargo test --workspace` builds.

use std::process::Command;

#[test]
fn the_benchmark_runs_every_section_at_smoke_size() {
    let bench = env!("CARGO_BIN_EXE_fugue-bench");
    let dir = tempfile::tempdir().expect("a temporary folder");
    let out = dir.path().join("smoke.json");
    let run = Command::new(bench)
        .arg("--smoke")
        .arg("--out")
        .arg(&out)
        .output()
        .expect("fugue-bench starts");
    let stdout = String::from_utf8_lossy(&run.stdout);
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(
        run.status.success(),
        "fugue-bench --smoke failed ({}); it needs target/debug/fugue and fugue-server, \
         which `cargo test --workspace` builds\nstdout:\n{stdout}\nstderr:\n{stderr}",
        run.status
    );
    // Every numbered section printed its heading.
    for section in [
        "1. throughput",
        "2. keystroke",
        "3. MCP",
        "4. server memory",
        "5. pane creation",
        "6. ",
        "7. sideband",
    ] {
        assert!(
            stdout.contains(section),
            "no `{section}` section in:\n{stdout}"
        );
    }
    let json: serde_json::Value =
        serde_json::from_slice(&std::fs::read(&out).expect("the JSON report")).expect("JSON");
    assert!(
        json.as_object().is_some_and(|o| !o.is_empty())
            || json.as_array().is_some_and(|a| !a.is_empty()),
        "an empty report: {json}"
    );
}
