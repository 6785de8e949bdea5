//! Saving an [`MLP`]'s parameters to a text file and loading them back.
//!
//! The file format is described on [`MLP::save`].

use std::fs;
use std::io::{BufWriter, Write};
use std::path::Path;

use super::mlp::shape_string;
use super::{Module, MLP};
use crate::Error;

/// The first word of every file.
const MAGIC: &str = "micrograd-mlp";

impl MLP {
    /// Writes the shape and every parameter to `path`, replacing the file if it exists.
    ///
    /// The format is plain text, one item per line:
    ///
    /// ```text
    /// micrograd-mlp 2 16 16 1
    /// 0.23550571390294128
    /// 0.06653114721000164
    /// 0.0
    /// ...
    /// ```
    ///
    /// Line 1 is `micrograd-mlp`, then `nin` and each layer's width. Then one parameter per
    /// line in [`Module::parameters`] order (layer by layer, neuron by neuron, weights then
    /// bias), written with Rust's shortest round-trip formatting, so loading gives back the
    /// exact bits. Activations are not saved: they are part of the code that builds the model.
    ///
    /// ```
    /// use micrograd::prelude::*;
    /// use rand::{rngs::StdRng, SeedableRng};
    /// let path = std::env::temp_dir().join("micrograd-doctest-save.txt");
    /// let trained = MLP::new(2, &[4, 1], &mut StdRng::seed_from_u64(1));
    /// trained.save(&path)?;
    /// let fresh = MLP::new(2, &[4, 1], &mut StdRng::seed_from_u64(2));
    /// fresh.load(&path)?;
    /// let data = |m: &MLP| m.parameters().iter().map(Value::data).collect::<Vec<_>>();
    /// assert_eq!(data(&fresh), data(&trained));
    /// # std::fs::remove_file(&path).ok();
    /// # Ok::<(), micrograd::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// [`Error::Write`] if the file cannot be created or written.
    pub fn save(&self, path: impl AsRef<Path>) -> Result<(), Error> {
        let path = path.as_ref();
        let write_error = |source| Error::Write {
            path: path.to_path_buf(),
            source,
        };
        let mut out = BufWriter::new(fs::File::create(path).map_err(write_error)?);
        let mut text = String::from(MAGIC);
        for width in std::iter::once(self.nin()).chain(self.nouts()) {
            text += &format!(" {width}");
        }
        writeln!(out, "{text}").map_err(write_error)?;
        for p in self.parameters() {
            writeln!(out, "{:?}", p.data()).map_err(write_error)?;
        }
        out.flush().map_err(write_error)
    }

    /// Sets every parameter to the value saved in `path` by [`MLP::save`]. Nothing is
    /// changed unless the whole file is valid.
    ///
    /// # Errors
    ///
    /// - [`Error::Io`] if the file cannot be read;
    /// - [`Error::ShapeMismatch`] if it was saved from a model of another shape (the
    ///   message names both, e.g. `MLP(2, [8, 1])` and `MLP(2, [16, 16, 1])`);
    /// - [`Error::Parse`], with the line number, if a line is not what the format says
    ///   or the number of parameters is wrong.
    pub fn load(&self, path: impl AsRef<Path>) -> Result<(), Error> {
        let path = path.as_ref();
        let text = fs::read_to_string(path).map_err(|source| Error::Io {
            path: path.to_path_buf(),
            source,
        })?;
        let params = self.parameters();
        let values = parse(&text, path, self, params.len())?;
        for (p, v) in params.iter().zip(values) {
            p.set_data(v);
        }
        Ok(())
    }
}

/// An [`Error::Parse`] about `path`.
fn parse_error(path: &Path, line: usize, column: usize, message: String) -> Error {
    Error::Parse {
        path: path.to_path_buf(),
        line,
        column,
        message,
    }
}

/// The `count` parameter values in `text`, checked against `model`'s shape.
fn parse(text: &str, path: &Path, model: &MLP, count: usize) -> Result<Vec<f64>, Error> {
    let mut lines = text.lines().enumerate().map(|(i, line)| (i + 1, line));
    let header = lines.next().map_or("", |(_, line)| line);
    let widths =
        parse_header(header).map_err(|(column, message)| parse_error(path, 1, column, message))?;
    let found = shape_string(widths[0], &widths[1..]);
    let expected = model.shape();
    if found != expected {
        return Err(Error::ShapeMismatch { expected, found });
    }
    let mut values = Vec::with_capacity(count);
    for (number, line) in lines {
        if values.len() == count {
            let message = format!("{found} has {count} parameters, but the file has more lines");
            return Err(parse_error(path, number, 1, message));
        }
        let value = line.trim().parse::<f64>().map_err(|_| {
            let message = format!(
                "expected a number (parameter {}), found {line:?}",
                values.len()
            );
            parse_error(path, number, 1, message)
        })?;
        values.push(value);
    }
    if values.len() < count {
        let message = format!(
            "file ends after {} parameters, but {found} has {count}",
            values.len()
        );
        return Err(parse_error(path, values.len() + 2, 1, message));
    }
    Ok(values)
}

/// `micrograd-mlp 2 16 16 1` → `[2, 16, 16, 1]` (at least `nin`).
/// A problem is `(column, message)`.
fn parse_header(header: &str) -> Result<Vec<usize>, (usize, String)> {
    let mut words = header.split(' ');
    if words.next() != Some(MAGIC) {
        let message = format!("expected a first line like `{MAGIC} 2 16 16 1`, found {header:?}");
        return Err((1, message));
    }
    let mut widths = Vec::new();
    let mut column = MAGIC.len() + 2;
    for word in words {
        let width = word.parse::<usize>().map_err(|_| {
            let message = format!("expected a layer width (a whole number), found {word:?}");
            (column, message)
        })?;
        widths.push(width);
        column += word.len() + 1;
    }
    if widths.is_empty() {
        let message = format!("expected the input width after `{MAGIC}`");
        return Err((column, message));
    }
    Ok(widths)
}
