//! Benchmarks (work in progress: core parse and bare PTY modes while profiling).
use portable_pty::{CommandBuilder, PtySize, native_pty_system};
use std::io::Read;
use std::time::Instant;
fn main() -> anyhow::Result<()> {
    let mode = std::env::args().nth(1).unwrap_or_default();
    let path = std::env::args().nth(2).unwrap_or_default();
    match mode.as_str() {
        "core" => {
            let mut data = Vec::new();
            std::fs::File::open(&path)?.read_to_end(&mut data)?;
            let mut st = fugue_server::pane::state::PaneState::new(200, 50, 10_000);
            let t = Instant::now();
            for chunk in data.chunks(4096) {
                let _ = st.process_scanning(chunk, std::env::args().nth(3).is_some());
            }
            let s = t.elapsed().as_secs_f64();
            println!("{:.1} MiB/s ({s:.2}s)", data.len() as f64 / 1048576.0 / s);
        }
        "bare" => {
            let pair = native_pty_system().openpty(PtySize {
                rows: 50,
                cols: 200,
                pixel_width: 0,
                pixel_height: 0,
            })?;
            let mut cmd = CommandBuilder::new("cat");
            cmd.arg(&path);
            let t = Instant::now();
            let mut child = pair.slave.spawn_command(cmd)?;
            drop(pair.slave);
            let mut r = pair.master.try_clone_reader()?;
            let mut buf = vec![0u8; 65536];
            let mut n = 0usize;
            let mut reads = 0usize;
            loop {
                match r.read(&mut buf) {
                    Ok(0) | Err(_) => break,
                    Ok(k) => {
                        n += k;
                        reads += 1;
                    }
                }
            }
            let _ = child.wait();
            println!(
                "bare pty: {:.2}s {} bytes {} reads",
                t.elapsed().as_secs_f64(),
                n,
                reads
            );
        }
        _ => anyhow::bail!("modes: core FILE [scan], bare FILE"),
    }
    Ok(())
}
