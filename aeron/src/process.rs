//! The examples' child processes: spawn, read their report lines, reap.
//!
//! A child writes two kinds of lines to its standard output: `READY` once its
//! subscriptions are connected, and one `RESULT key=value ...` line at the end (numbers
//! only). Everything else it prints (progress, errors) goes to standard error, which
//! it shares with the parent.

use crate::Error;
use std::collections::HashMap;
use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::thread;
use std::time::{Duration, Instant};

/// A child's `RESULT` line: its `key=value` pairs.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Fields(HashMap<String, u64>);

impl Fields {
    /// Parses `key=value` pairs separated by spaces (a pair whose value is not a
    /// `u64` is left out).
    pub fn parse(line: &str) -> Fields {
        Fields(
            line.split_whitespace()
                .filter_map(|pair| {
                    let (key, value) = pair.split_once('=')?;
                    Some((key.to_string(), value.parse().ok()?))
                })
                .collect(),
        )
    }

    /// The value of `key` (0 when absent).
    pub fn get(&self, key: &str) -> u64 {
        self.0.get(key).copied().unwrap_or(0)
    }
}

/// Formats `key=value` pairs as a `RESULT` line.
pub fn result_line(fields: &[(&str, u64)]) -> String {
    let mut line = String::from("RESULT");
    for (key, value) in fields {
        line.push_str(&format!(" {key}={value}"));
    }
    line
}

/// Spawned children and the lines they report.
#[derive(Debug)]
pub struct Children {
    children: Vec<Child>,
    lines: Receiver<(usize, String)>,
}

impl Children {
    /// Spawns one child of `exe` per argument list, each with its standard output
    /// read by a thread of this process.
    ///
    /// # Errors
    ///
    /// [`Error::Io`] if a child cannot be started (those already started are killed).
    pub fn spawn(exe: &Path, args: &[Vec<String>]) -> Result<Children, Error> {
        let (sender, lines) = channel();
        let mut children = Children {
            children: Vec::new(),
            lines,
        };
        for (index, args) in args.iter().enumerate() {
            let mut child = Command::new(exe)
                .args(args)
                .stdin(Stdio::null())
                .stdout(Stdio::piped())
                .stderr(Stdio::inherit())
                .spawn()
                .map_err(|e| Error::Process(format!("cannot start {}: {e}", exe.display())))?;
            let stdout = child.stdout.take().expect("stdout is piped");
            children.children.push(child);
            let sender = sender.clone();
            thread::Builder::new()
                .name(format!("child-{index}"))
                .spawn(move || {
                    for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                        if sender.send((index, line)).is_err() {
                            break;
                        }
                    }
                })?;
        }
        Ok(children)
    }

    /// How many children there are.
    pub fn len(&self) -> usize {
        self.children.len()
    }

    /// True if there are none.
    pub fn is_empty(&self) -> bool {
        self.children.is_empty()
    }

    /// Waits for one line starting with `prefix` from every child; returns the rest
    /// of each line, by child.
    ///
    /// # Errors
    ///
    /// [`Error::Timeout`] if some child has not reported by `deadline` (or exited
    /// without reporting).
    pub fn expect_each(&mut self, prefix: &str, timeout: Duration) -> Result<Vec<String>, Error> {
        let deadline = Instant::now() + timeout;
        let mut found: Vec<Option<String>> = vec![None; self.children.len()];
        while found.iter().any(Option::is_none) {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok((index, line)) => {
                    if let Some(rest) = line.strip_prefix(prefix) {
                        found[index] = Some(rest.trim().to_string());
                    } else {
                        eprintln!("child {index}: {line}");
                    }
                }
                Err(RecvTimeoutError::Timeout | RecvTimeoutError::Disconnected) => {
                    let missing: Vec<usize> =
                        (0..found.len()).filter(|i| found[*i].is_none()).collect();
                    return Err(Error::Timeout(format!(
                        "children {missing:?} did not report {prefix} within {timeout:?}"
                    )));
                }
            }
        }
        Ok(found.into_iter().map(Option::unwrap_or_default).collect())
    }

    /// True once every child has exited.
    pub fn all_exited(&mut self) -> bool {
        self.children
            .iter_mut()
            .all(|c| matches!(c.try_wait(), Ok(Some(_))))
    }

    /// Waits for every child to exit, killing those still running after `timeout`.
    ///
    /// # Errors
    ///
    /// [`Error::Process`] if a child failed or had to be killed.
    pub fn wait(&mut self, timeout: Duration) -> Result<(), Error> {
        let deadline = Instant::now() + timeout;
        let mut failed = Vec::new();
        for (index, child) in self.children.iter_mut().enumerate() {
            loop {
                match child.try_wait()? {
                    Some(status) if status.success() => break,
                    Some(status) => {
                        failed.push(format!("child {index} exited with {status}"));
                        break;
                    }
                    None if Instant::now() > deadline => {
                        let _ = child.kill();
                        let _ = child.wait();
                        failed.push(format!("child {index} killed after {timeout:?}"));
                        break;
                    }
                    None => thread::sleep(Duration::from_millis(5)),
                }
            }
        }
        if failed.is_empty() {
            Ok(())
        } else {
            Err(Error::Process(failed.join("; ")))
        }
    }
}

impl Drop for Children {
    fn drop(&mut self) {
        for child in &mut self.children {
            if matches!(child.try_wait(), Ok(None)) {
                let _ = child.kill();
                let _ = child.wait();
            }
        }
    }
}

/// `n` distinct UDP ports on 127.0.0.1 that were free when probed, none handed out
/// before by this process.
///
/// The ports come from below the system's ephemeral range (Linux's
/// `/proc/sys/net/ipv4/ip_local_port_range`, 32768 by default; IANA's 49152
/// elsewhere), so that no socket bound to port 0 meanwhile (another test's, or an
/// Aeron client's own) can be given one of them between this probe and the driver's
/// bind. A counter shared by the process's threads, started at a point derived from
/// the process id, keeps parallel callers apart.
///
/// # Errors
///
/// [`Error::Io`] if `n` free ports cannot be found in the window.
pub fn free_udp_ports(n: usize) -> Result<Vec<u16>, Error> {
    use std::sync::atomic::{AtomicU32, Ordering};
    static NEXT: AtomicU32 = AtomicU32::new(u32::MAX);
    let (low, high) = port_window();
    let span = u32::from(high - low);
    let _ = NEXT.compare_exchange(
        u32::MAX,
        std::process::id().wrapping_mul(7919) % span,
        Ordering::Relaxed,
        Ordering::Relaxed,
    );
    let mut ports = Vec::with_capacity(n);
    for _ in 0..span {
        if ports.len() == n {
            break;
        }
        let port = low + (NEXT.fetch_add(1, Ordering::Relaxed) % span) as u16;
        if std::net::UdpSocket::bind(("127.0.0.1", port)).is_ok() {
            ports.push(port);
        }
    }
    if ports.len() < n {
        return Err(Error::Io(std::io::Error::new(
            std::io::ErrorKind::AddrInUse,
            format!("fewer than {n} free UDP ports in {low}..{high}"),
        )));
    }
    Ok(ports)
}

/// The ports [`free_udp_ports`] hands out: 8192 below the ephemeral range's start.
fn port_window() -> (u16, u16) {
    let ephemeral_low = std::fs::read_to_string("/proc/sys/net/ipv4/ip_local_port_range")
        .ok()
        .and_then(|range| range.split_whitespace().next()?.parse::<u16>().ok())
        .unwrap_or(49152);
    let high = ephemeral_low.max(8192 + 1024);
    (high - 8192, high)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn udp_ports_are_distinct_across_threads_and_outside_the_ephemeral_range() {
        let (low, high) = port_window();
        let threads: Vec<_> = (0..4)
            .map(|_| thread::spawn(|| free_udp_ports(16).unwrap()))
            .collect();
        let mut ports: Vec<u16> = threads
            .into_iter()
            .flat_map(|t| t.join().unwrap())
            .collect();
        assert_eq!(ports.len(), 64);
        assert!(ports.iter().all(|p| (low..high).contains(p)), "{ports:?}");
        ports.sort_unstable();
        ports.dedup();
        assert_eq!(ports.len(), 64, "a port was handed out twice");
        // A socket bound to port 0 gets a port the window never hands out.
        let ephemeral = std::net::UdpSocket::bind("127.0.0.1:0").unwrap();
        let port = ephemeral.local_addr().unwrap().port();
        if cfg!(target_os = "linux") {
            assert!(port >= high, "ephemeral port {port} inside {low}..{high}");
        }
    }
}
