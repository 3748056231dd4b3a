//! How the option verbs show their answers: tmux 3.3a's output, line for line.

use fugue_protocol::Response;
use fugue_verbs::OptionPrinter;
use std::io::Write;

pub fn print(out: &mut impl Write, p: &OptionPrinter, resp: &Response) -> anyhow::Result<()> {
    if let (OptionPrinter::Lines { value_only }, Response::Options(lines)) = (p, resp) {
        for l in lines {
            match (value_only, &l.value) {
                (true, Some(v)) => writeln!(out, "{v}")?,
                (true, None) => {}
                (false, _) => writeln!(out, "{}", l.line())?,
            }
        }
    }
    Ok(())
}
