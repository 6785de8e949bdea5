//! Reading a file that may be gzip-compressed, with a bound on what it inflates to.

use std::path::Path;

use super::parse_error;
use crate::Error;

/// The first two bytes of every gzip stream (RFC 1952, section 2.3.1).
const GZIP_MAGIC: [u8; 2] = [0x1f, 0x8b];

/// The most bytes a [`Loader`] inflates a gzip file to unless told otherwise: 64 MiB.
///
/// That holds MNIST's largest file (60,000 training images, 47 MB) and stops a small
/// "gzip bomb" early: a 95 KB `.csv.gz` of `0,0` rows (93 MiB of text) or a 260 KB `.gz`
/// of 256 MiB of zeros is refused after about 68 MB of memory. Parsing takes more memory
/// than the text: a CSV file of the shortest rows (`0,0`, 4 bytes) needs about 80 bytes
/// per row in a [`Dataset`](super::Dataset) (1.3 GB for 60 MiB of text, measured).
pub const DEFAULT_MAX_INFLATED: u64 = 64 << 20;

/// Loads data files with a bound on how much a gzip-compressed file may inflate to
/// ([`DEFAULT_MAX_INFLATED`] unless set with [`max_inflated`](Loader::max_inflated)).
///
/// [`load_csv`](super::load_csv), [`load_mnist`](super::load_mnist) and the other
/// `load_*` functions use `Loader::new()`; use a `Loader` of your own to raise (or
/// lower) the limit. Plain files are read as they are: their size is the one on disk.
///
/// ```
/// use micrograd::data::Loader;
/// let path = std::env::temp_dir().join(format!("micrograd-loader-{}.csv", std::process::id()));
/// std::fs::write(&path, "1,2,0\n3,4,1\n").unwrap();
/// let data = Loader::new().max_inflated(1 << 30).load_csv(&path)?; // trust up to 1 GiB
/// assert_eq!(data.len(), 2);
/// # std::fs::remove_file(&path).unwrap();
/// # Ok::<(), micrograd::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Loader {
    max_inflated: u64,
}

impl Default for Loader {
    fn default() -> Loader {
        Loader::new()
    }
}

impl Loader {
    /// A loader with the default limit, [`DEFAULT_MAX_INFLATED`].
    pub fn new() -> Loader {
        Loader {
            max_inflated: DEFAULT_MAX_INFLATED,
        }
    }

    /// The same loader, inflating a gzip file to at most `bytes` bytes: a larger file is
    /// an [`Error::Parse`] saying so, found after reading `bytes + 1` bytes of it (the
    /// buffer may grow to twice that while it fills).
    pub fn max_inflated(self, bytes: u64) -> Loader {
        Loader {
            max_inflated: bytes,
        }
    }

    /// The bytes of the file at `path`, decompressed if they start with the gzip magic
    /// bytes (whatever the file is called).
    ///
    /// # Errors
    ///
    /// [`Error::Io`] if the file cannot be read, [`Error::Parse`] if it looks like gzip
    /// but does not decompress, or inflates to more than the limit (or the crate was
    /// built without its `flate2` feature).
    pub(super) fn read_maybe_gz(&self, path: &Path) -> Result<Vec<u8>, Error> {
        let bytes = std::fs::read(path).map_err(|source| Error::Io {
            path: path.to_path_buf(),
            source,
        })?;
        if !bytes.starts_with(&GZIP_MAGIC) {
            return Ok(bytes);
        }
        gunzip(&bytes, self.max_inflated).map_err(|message| parse_error(path, 0, 0, message))
    }
}

/// `bytes` decompressed, or what went wrong: not gzip after all, or more than `limit`
/// bytes once inflated.
#[cfg(feature = "flate2")]
fn gunzip(bytes: &[u8], limit: u64) -> Result<Vec<u8>, String> {
    use std::io::Read;
    let mut out = Vec::new();
    flate2::read::MultiGzDecoder::new(bytes)
        .take(limit.saturating_add(1))
        .read_to_end(&mut out)
        .map_err(|e| format!("starts like gzip (bytes 1f 8b) but does not decompress: {e}"))?;
    if out.len() as u64 > limit {
        return Err(format!(
            "decompresses to more than {limit} bytes, the most this loader inflates (a \
             guard against gzip bombs; the default is micrograd::data::DEFAULT_MAX_INFLATED); \
             if you trust the file, raise it: Loader::new().max_inflated(bytes)"
        ));
    }
    Ok(out)
}

/// Without the `flate2` feature, a gzip file is an error that says how to read it.
#[cfg(not(feature = "flate2"))]
fn gunzip(_: &[u8], _: u64) -> Result<Vec<u8>, String> {
    Err(
        "is gzip-compressed (starts with bytes 1f 8b), but micrograd was built without its \
         `flate2` feature: enable the feature or decompress the file (`gunzip`)"
            .to_owned(),
    )
}
