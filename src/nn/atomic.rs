//! Replacing a file without ever leaving it half-written: write beside it, sync, rename.

use std::ffi::{OsStr, OsString};
use std::fs::{self, File};
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use crate::Error;

/// A number for each temporary file this process makes, so that two saves at once
/// (from two threads) never share one.
static TEMPORARY: AtomicU64 = AtomicU64::new(0);

/// The most symbolic links followed from one path, as Linux's `ELOOP` limit.
const MAX_LINKS: usize = 40;

/// The longest file name (in bytes) most file systems take (ext4, XFS, Btrfs, APFS;
/// NTFS counts 255 UTF-16 units).
const NAME_MAX: usize = 255;

/// Writes `path` through a temporary file beside it: `write` fills it, it is flushed,
/// given the permissions of the file at `path` if there is one, synced, then renamed
/// over `path`. On failure the temporary file is removed and `path` is as it was. If
/// `path` is a symbolic link (or a chain of them), the file it points to is replaced
/// that way and the link is kept.
pub(crate) fn write_atomically(
    path: &Path,
    write: impl FnOnce(&mut dyn Write) -> io::Result<()>,
) -> Result<(), Error> {
    let write_error = |source| Error::Write {
        path: path.to_path_buf(),
        source,
    };
    let resolved = follow_links(path).map_err(write_error)?;
    let path = resolved.as_path();
    let Some(name) = path.file_name() else {
        let message = "the path names no file (it ends in `..` or is empty)";
        return Err(write_error(io::Error::new(
            io::ErrorKind::InvalidInput,
            message,
        )));
    };
    let number = TEMPORARY.fetch_add(1, Ordering::Relaxed);
    let suffix = format!(".tmp-{}-{number}", std::process::id());
    let temporary = path.with_file_name(temporary_name(name, &suffix));
    // A file replaced keeps its permissions (a model kept private stays private); a new
    // one gets the default of a created file.
    let keep = fs::metadata(path).ok().filter(fs::Metadata::is_file);
    let written = (|| {
        let mut out = BufWriter::new(File::create(&temporary)?);
        write(&mut out)?;
        let file = out.into_inner().map_err(io::IntoInnerError::into_error)?;
        if let Some(old) = keep {
            file.set_permissions(old.permissions())?;
        }
        file.sync_all()?;
        fs::rename(&temporary, path)
    })();
    if let Err(source) = written {
        // The temporary file may not exist (if creating it failed): nothing to report.
        fs::remove_file(&temporary).ok();
        return Err(write_error(source));
    }
    // Make the rename itself durable. Not every platform can open a directory to sync
    // it; the file is complete and in place either way.
    let directory = path.parent().filter(|d| !d.as_os_str().is_empty());
    if let Ok(dir) = File::open(directory.unwrap_or(Path::new("."))) {
        dir.sync_all().ok();
    }
    Ok(())
}

/// The temporary file's name for a file `name`: `.NAME` then `suffix`, with `NAME`
/// cut short (whole characters, a name that is not Unicode read lossily) where the
/// whole would be longer than [`NAME_MAX`] bytes, so that any name the file system
/// takes has a temporary file it takes too.
fn temporary_name(name: &OsStr, suffix: &str) -> OsString {
    let room = NAME_MAX - 1 - suffix.len();
    let mut temporary = OsString::from(".");
    if name.len() <= room {
        temporary.push(name);
    } else {
        let name = name.to_string_lossy();
        let cut = (name.char_indices().map(|(i, c)| i + c.len_utf8()))
            .take_while(|&end| end <= room)
            .last()
            .unwrap_or(0);
        temporary.push(&name[..cut]);
    }
    temporary.push(suffix);
    temporary
}

/// `path` with every symbolic link it ends in followed (a relative link from the
/// link's directory), so that the rename replaces the file the link points to, not the
/// link. The target need not exist: saving through a dangling link creates it.
fn follow_links(path: &Path) -> io::Result<PathBuf> {
    let mut path = path.to_path_buf();
    for _ in 0..MAX_LINKS {
        match fs::symlink_metadata(&path) {
            Ok(meta) if meta.file_type().is_symlink() => {
                let target = fs::read_link(&path)?;
                // Joining an absolute target gives the target itself.
                path = match path.parent() {
                    Some(dir) => dir.join(target),
                    None => target,
                };
            }
            _ => return Ok(path),
        }
    }
    Err(io::Error::other(format!(
        "more than {MAX_LINKS} symbolic links in a row (a loop?); save to the file itself"
    )))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_name_s_temporary_name_is_cut_at_a_whole_character() {
        let name = "é".repeat(127); // 254 bytes, two per character
        let temporary = temporary_name(OsStr::new(&name), ".tmp-12-0"); // room: 245 bytes
        let temporary = temporary.to_str().expect("whole characters");
        assert!(temporary.len() <= NAME_MAX, "{}", temporary.len());
        assert!(temporary.starts_with(".éé") && temporary.ends_with("é.tmp-12-0"));
        assert_eq!(
            temporary_name(OsStr::new("m.txt"), ".tmp-1-0"),
            ".m.txt.tmp-1-0"
        );
    }

    #[test]
    fn a_write_that_fails_midway_leaves_the_old_file_and_no_temporary_file() {
        let dir = std::env::temp_dir().join(format!("micrograd-atomic-{}", std::process::id()));
        fs::create_dir_all(&dir).unwrap();
        let path = dir.join("model.txt");
        fs::write(&path, "the old model\n").unwrap();
        let err = write_atomically(&path, |out| {
            out.write_all(b"half a new mod")?;
            Err(io::Error::other("disk full (injected)"))
        })
        .unwrap_err();
        assert!(matches!(err, Error::Write { .. }), "{err:?}");
        assert_eq!(fs::read_to_string(&path).unwrap(), "the old model\n");
        let names: Vec<_> = fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names, ["model.txt"]);
        fs::remove_dir_all(&dir).unwrap();
    }
}
