//! MNIST's IDX files: big-endian binary arrays of unsigned bytes.
//!
//! An IDX file is a 4-byte magic number `00 00 08 D` (`08`: the elements are unsigned
//! bytes; `D`: the number of dimensions), then `D` big-endian `u32` sizes, then the
//! elements, row-major. MNIST images are `D = 3` (count, rows, columns), labels `D = 1`.
//! Binary files have no lines, so errors report line 0 and say which byte offset is wrong.

use std::path::Path;

use super::{parse_error, Dataset, Loader};
use crate::Error;

/// The magic number of an IDX file of unsigned-byte images (3 dimensions).
pub const IDX_IMAGES_MAGIC: u32 = 0x0000_0803;
/// The magic number of an IDX file of unsigned-byte labels (1 dimension).
pub const IDX_LABELS_MAGIC: u32 = 0x0000_0801;
/// The bytes before a labels file's first label: the magic number and the count.
const LABELS_HEADER: usize = 8;

/// Images read from an IDX file, each flattened row by row and scaled to `[0, 1]`.
#[derive(Clone, Debug, PartialEq)]
pub struct IdxImages {
    /// One row of `rows * cols` pixels per image: byte `b` becomes `b / 255`.
    pub pixels: Vec<Vec<f64>>,
    /// The height of each image (28 for MNIST).
    pub rows: usize,
    /// The width of each image (28 for MNIST).
    pub cols: usize,
}

/// Reads an IDX images file (magic `0x00000803`), plain or gzip-compressed.
///
/// # Errors
///
/// [`Error::Io`] if the file cannot be read; [`Error::Parse`] if it is gzip that inflates
/// to more than [`DEFAULT_MAX_INFLATED`](super::DEFAULT_MAX_INFLATED) bytes (a [`Loader`]
/// sets another limit); otherwise as [`parse_idx_images`].
///
/// ```no_run
/// let images = micrograd::data::load_idx_images("t10k-images-idx3-ubyte.gz")?;
/// assert_eq!((images.rows, images.cols), (28, 28));
/// # Ok::<(), micrograd::Error>(())
/// ```
pub fn load_idx_images(path: impl AsRef<Path>) -> Result<IdxImages, Error> {
    Loader::new().load_idx_images(path)
}

/// Reads an IDX labels file (magic `0x00000801`), plain or gzip-compressed; each byte
/// becomes one label (`7` becomes `7.0`).
///
/// # Errors
///
/// [`Error::Io`] if the file cannot be read; [`Error::Parse`] if it is gzip that inflates
/// to more than [`DEFAULT_MAX_INFLATED`](super::DEFAULT_MAX_INFLATED) bytes (a [`Loader`]
/// sets another limit); otherwise as [`parse_idx_labels`].
///
/// ```no_run
/// let labels = micrograd::data::load_idx_labels("t10k-labels-idx1-ubyte.gz")?;
/// assert!(labels.iter().all(|&y| (0.0..=9.0).contains(&y)));
/// # Ok::<(), micrograd::Error>(())
/// ```
pub fn load_idx_labels(path: impl AsRef<Path>) -> Result<Vec<f64>, Error> {
    Loader::new().load_idx_labels(path)
}

/// Reads an MNIST images file and its labels file into one [`Dataset`]: 784 inputs in
/// `[0, 1]` per 28x28 image, labels the digits `0.0..=9.0`.
///
/// # Errors
///
/// As [`load_idx_images`] and [`load_idx_labels`], and [`Error::Parse`] (for the labels
/// file) if the two files hold different numbers of samples or a label is not a digit
/// `0..=9`.
///
/// ```no_run
/// let test = micrograd::data::load_mnist(
///     "mnist/t10k-images-idx3-ubyte.gz",
///     "mnist/t10k-labels-idx1-ubyte.gz",
/// )?;
/// assert_eq!((test.len(), test.width()), (10_000, 784));
/// # Ok::<(), micrograd::Error>(())
/// ```
pub fn load_mnist(images: impl AsRef<Path>, labels: impl AsRef<Path>) -> Result<Dataset, Error> {
    Loader::new().load_mnist(images, labels)
}

/// The IDX loaders with a [`Loader`]'s limit on what a gzip file inflates to.
impl Loader {
    /// [`load_idx_images`] with this loader's limit.
    ///
    /// # Errors
    ///
    /// As [`load_idx_images`].
    pub fn load_idx_images(&self, path: impl AsRef<Path>) -> Result<IdxImages, Error> {
        let path = path.as_ref();
        parse_idx_images(&self.read_maybe_gz(path)?, path)
    }

    /// [`load_idx_labels`] with this loader's limit.
    ///
    /// # Errors
    ///
    /// As [`load_idx_labels`].
    pub fn load_idx_labels(&self, path: impl AsRef<Path>) -> Result<Vec<f64>, Error> {
        let path = path.as_ref();
        parse_idx_labels(&self.read_maybe_gz(path)?, path)
    }

    /// [`load_mnist`] with this loader's limit.
    ///
    /// # Errors
    ///
    /// As [`load_mnist`].
    pub fn load_mnist(
        &self,
        images: impl AsRef<Path>,
        labels: impl AsRef<Path>,
    ) -> Result<Dataset, Error> {
        let (images, labels_path) = (images.as_ref(), labels.as_ref());
        let pixels = self.load_idx_images(images)?.pixels;
        let labels = self.load_idx_labels(labels_path)?;
        if pixels.len() != labels.len() {
            let message = format!(
                "holds {} labels but {} holds {} images; pass the labels file that belongs to those images",
                labels.len(),
                images.display(),
                pixels.len()
            );
            return Err(parse_error(labels_path, 0, 0, message));
        }
        // MNIST's labels are digits: another byte means another dataset's file.
        if let Some((i, y)) = labels.iter().enumerate().find(|(_, &y)| y > 9.0) {
            let message = format!(
                "label {y} of sample {i} (byte offset {}) is not a digit 0..=9, as MNIST's \
                 labels are; for another dataset's labels use load_idx_labels",
                LABELS_HEADER + i
            );
            return Err(parse_error(labels_path, 0, 0, message));
        }
        Ok(Dataset {
            inputs: pixels,
            labels,
        })
    }
}

/// Parses the bytes of an IDX images file; `name` is the file name errors report.
///
/// # Errors
///
/// [`Error::Parse`] (line 0) naming the byte offset and what was expected: a wrong magic
/// number, a header or pixel data cut short, images of zero rows or columns, or bytes
/// left over after the last image.
///
/// ```
/// // Magic 0x00000803, 1 image of 1 x 2 pixels: 0 and 255.
/// let bytes = [0, 0, 8, 3, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 2, 0, 255];
/// let images = micrograd::data::parse_idx_images(&bytes, "tiny")?;
/// assert_eq!(images.pixels, vec![vec![0.0, 1.0]]);
/// assert_eq!((images.rows, images.cols), (1, 2));
/// # Ok::<(), micrograd::Error>(())
/// ```
pub fn parse_idx_images(bytes: &[u8], name: impl AsRef<Path>) -> Result<IdxImages, Error> {
    let path = name.as_ref();
    let (sizes, body) = split_header(bytes, IDX_IMAGES_MAGIC, path)?;
    let (rows, cols) = (sizes[1], sizes[2]);
    if rows == 0 || cols == 0 {
        let message = format!(
            "the header (bytes 8..16) gives images of {rows} x {cols} pixels; neither may be 0"
        );
        return Err(parse_error(path, 0, 0, message));
    }
    let pixels: Vec<Vec<f64>> = check_body(body, &sizes, path)?
        .chunks_exact(rows * cols)
        .map(|image| image.iter().map(|&b| f64::from(b) / 255.0).collect())
        .collect();
    Ok(IdxImages { pixels, rows, cols })
}

/// Parses the bytes of an IDX labels file; `name` is the file name errors report.
///
/// # Errors
///
/// [`Error::Parse`] (line 0) naming the byte offset and what was expected: a wrong magic
/// number, a header or label data cut short, or bytes left over after the last label.
///
/// ```
/// // Magic 0x00000801, 3 labels.
/// let bytes = [0, 0, 8, 1, 0, 0, 0, 3, 7, 2, 1];
/// assert_eq!(micrograd::data::parse_idx_labels(&bytes, "tiny")?, vec![7.0, 2.0, 1.0]);
/// # Ok::<(), micrograd::Error>(())
/// ```
pub fn parse_idx_labels(bytes: &[u8], name: impl AsRef<Path>) -> Result<Vec<f64>, Error> {
    let path = name.as_ref();
    let (sizes, body) = split_header(bytes, IDX_LABELS_MAGIC, path)?;
    Ok(check_body(body, &sizes, path)?
        .iter()
        .map(|&b| f64::from(b))
        .collect())
}

/// Checks the magic number and splits the file into its sizes and the bytes after them.
fn split_header<'a>(
    bytes: &'a [u8],
    magic: u32,
    path: &Path,
) -> Result<(Vec<usize>, &'a [u8]), Error> {
    let dims = (magic & 0xff) as usize;
    let header_len = 4 + 4 * dims;
    let word = |i: usize| {
        bytes
            .get(4 * i..4 * i + 4)
            .map(|w| [w[0], w[1], w[2], w[3]])
    };
    let Some(found) = word(0).map(u32::from_be_bytes) else {
        let message = format!(
            "the file is {} bytes long; an IDX file starts with a 4-byte magic number (0x{magic:08x})",
            bytes.len()
        );
        return Err(parse_error(path, 0, 0, message));
    };
    if found != magic {
        let hint = match found {
            IDX_IMAGES_MAGIC => " (this is an images file)",
            IDX_LABELS_MAGIC => " (this is a labels file)",
            _ => "",
        };
        let message = format!(
            "magic number at byte 0 is 0x{found:08x}{hint} but 0x{magic:08x} was expected \
             (unsigned bytes, {dims} dimension{})",
            if dims == 1 { "" } else { "s" }
        );
        return Err(parse_error(path, 0, 0, message));
    }
    let Some(sizes) = (1..=dims)
        .map(|i| word(i).map(|w| u32::from_be_bytes(w) as usize))
        .collect::<Option<Vec<usize>>>()
    else {
        let message = format!(
            "the file ends at byte {} inside the {header_len}-byte header (magic number and {dims} sizes)",
            bytes.len()
        );
        return Err(parse_error(path, 0, 0, message));
    };
    Ok((sizes, &bytes[header_len..]))
}

/// `body` itself if it holds exactly the product of `sizes` bytes; otherwise an error
/// saying where the data ends or where the extra bytes start.
fn check_body<'a>(body: &'a [u8], sizes: &[usize], path: &Path) -> Result<&'a [u8], Error> {
    let header_len = 4 + 4 * sizes.len();
    let shape = sizes
        .iter()
        .map(usize::to_string)
        .collect::<Vec<_>>()
        .join(" x ");
    let Some(expected) = sizes.iter().try_fold(1usize, |n, &s| n.checked_mul(s)) else {
        let message = format!("the header's sizes {shape} are too large to hold in memory");
        return Err(parse_error(path, 0, 0, message));
    };
    let (end, actual) = (header_len.saturating_add(expected), header_len + body.len());
    if body.len() < expected {
        let message = format!(
            "the file is truncated: it ends at byte {actual} but the header's sizes \
             ({shape} bytes from byte {header_len}) need it to run to byte {end}"
        );
        return Err(parse_error(path, 0, 0, message));
    }
    if body.len() > expected {
        let message = format!(
            "{} unexpected bytes from byte {end} to {actual}, after the {shape} bytes the header declares",
            actual - end
        );
        return Err(parse_error(path, 0, 0, message));
    }
    Ok(body)
}
