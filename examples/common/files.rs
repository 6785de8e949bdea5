//! Writing the examples' files without writing through a link someone planted: a
//! default output goes into a new directory that the example creates itself, and every
//! file is written beside its place under a new name, then renamed over it.
//!
//! It uses nothing but `std` (its errors are messages), so that `cortex_m4.rs`, which
//! lesson 35 includes too, can include it with `#[path]`; the examples reach it as
//! `common::files`.

use std::collections::hash_map::RandomState;
use std::fs::{self, OpenOptions};
use std::hash::{BuildHasher, Hasher};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{SystemTime, UNIX_EPOCH};

/// An error is the message an example prints.
type Result<T = ()> = std::result::Result<T, String>;

/// A number for each name this process draws, so that two never repeat.
static DRAWN: AtomicU64 = AtomicU64::new(0);

/// The most names tried before giving up: each is taken only if something is there
/// already, which no one can arrange for a name they cannot predict.
const ATTEMPTS: usize = 16;

/// 16 hex digits no other process can predict: a count, the process id and the time,
/// hashed with keys the standard library draws from the system's random source.
fn unpredictable() -> String {
    let mut hasher = RandomState::new().build_hasher();
    hasher.write_u64(DRAWN.fetch_add(1, Ordering::Relaxed));
    hasher.write_u32(std::process::id());
    let now = SystemTime::now().duration_since(UNIX_EPOCH);
    hasher.write_u128(now.map_or(0, |t| t.as_nanos()));
    format!("{:016x}", hasher.finish())
}

/// A new, empty directory for an example's default output in the system's temp dir,
/// `micrograd-EXAMPLE-PID-XXXXXXXXXXXXXXXX`. It is created with `fs::create_dir`, which
/// fails if anything (a link included) is already there, so nothing in it was planted
/// by anyone else; a name taken is passed over for another.
pub fn new_temp_dir(example: &str) -> Result<PathBuf> {
    let temp = std::env::temp_dir();
    for _ in 0..ATTEMPTS {
        let name = format!(
            "micrograd-{example}-{}-{}",
            std::process::id(),
            unpredictable()
        );
        let dir = temp.join(name);
        match fs::create_dir(&dir) {
            Ok(()) => return Ok(dir),
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => continue,
            Err(e) => {
                return Err(format!(
                    "cannot create a directory in {} for the output: {e}",
                    temp.display()
                ))
            }
        }
    }
    Err(format!(
        "cannot create a directory in {} for the output: {ATTEMPTS} new names were all taken",
        temp.display()
    ))
}

/// Writes `contents` to `path`: into a new file beside it (`.NAME.tmp-` and 16 hex
/// digits, created exclusively, so never through a link), then renamed over `path`.
/// A symbolic link at `path` is replaced by the file, not followed into the file it
/// points to; on failure the new file is removed and `path` is as it was.
pub fn write(path: &Path, contents: impl AsRef<[u8]>) -> Result {
    let fail = |e: io::Error| format!("cannot write {}: {e}", path.display());
    let Some(name) = path.file_name() else {
        return Err(format!(
            "cannot write {}: the path names no file",
            path.display()
        ));
    };
    let mut options = OpenOptions::new();
    options.write(true).create_new(true);
    for _ in 0..ATTEMPTS {
        let mut temporary = std::ffi::OsString::from(".");
        temporary.push(name);
        temporary.push(format!(".tmp-{}", unpredictable()));
        let temporary = path.with_file_name(temporary);
        let mut file = match options.open(&temporary) {
            Ok(file) => file,
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(fail(e)),
        };
        let written = file
            .write_all(contents.as_ref())
            .and_then(|()| file.sync_all())
            .and_then(|()| fs::rename(&temporary, path));
        if let Err(e) = written {
            fs::remove_file(&temporary).ok();
            return Err(fail(e));
        }
        return Ok(());
    }
    let taken = io::Error::new(
        io::ErrorKind::AlreadyExists,
        "no new name for a file beside it",
    );
    Err(fail(taken))
}
