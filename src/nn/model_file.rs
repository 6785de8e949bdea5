//! The text of a model file: writing it, and reading it back line by line with every
//! line bounded (see [`MLP::save`](super::MLP::save) for the format).

use std::collections::{HashMap, HashSet};
use std::fs::File;
use std::io::{self, BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::str::FromStr;

use super::save::{describe_header, parameter_count, SavedMlp};
use super::{Activation, CustomActivation};
use crate::error::quote;
use crate::optim::OptimizerState;
use crate::Error;

/// The first word of every file.
const MAGIC: &str = "micrograd-mlp";
/// The format [`MLP::save`](super::MLP::save) writes: version 3 is version 2 with an
/// [`END`] line.
const VERSION: u32 = 3;
/// The last line of a file of version 3 or later: a file cut short anywhere lacks it
/// (or the line break after it), so that no cut file loads.
const END: &str = "end";
/// The longest line a reader takes: far more than any line a valid file has (a header
/// line, one number, or one parameter's optimiser state), so a file that is not a model
/// is refused after reading at most this much of it.
const MAX_LINE: usize = 4096;
/// The most numbers a line of at most [`MAX_LINE`] bytes holds: each number takes at
/// least one byte, and each but the last a space after it.
const MAX_NUMBERS_PER_LINE: usize = MAX_LINE.div_ceil(2);

/// The shape a file's header gives: the input width and each layer's width and
/// activation (`None` in a version-1 file, which does not record them).
pub(super) struct Header {
    /// The input width.
    pub(super) nin: usize,
    /// Each layer's width and activation (`None` in version 1).
    pub(super) layers: Vec<(usize, Option<Activation>)>,
}

/// The text of a model file (see [`MLP::save`](super::MLP::save) and
/// [`MLP::save_with`](super::MLP::save_with)).
pub(super) fn write_model(
    out: &mut dyn Write,
    saved: &SavedMlp,
    optimizer: Option<&OptimizerState>,
) -> io::Result<()> {
    writeln!(out, "{MAGIC} version {VERSION}")?;
    writeln!(out, "input {}", saved.nin)?;
    for (width, activation) in &saved.layers {
        writeln!(out, "layer {width} {activation}")?;
    }
    writeln!(out, "parameters {}", saved.parameters.len())?;
    for p in &saved.parameters {
        writeln!(out, "{p:?}")?;
    }
    if let Some(state) = optimizer {
        writeln!(out, "optimizer {}", state.kind)?;
        writeln!(out, "steps {}", state.steps)?;
        for (name, value) in &state.hyper_parameters {
            writeln!(out, "{}", hyper_line(name, *value))?;
        }
        let width = state.slots.first().map_or(0, Vec::len);
        writeln!(out, "state {} {width}", state.slots.len())?;
        for slot in &state.slots {
            writeln!(out, "{}", slot_line(slot))?;
        }
    }
    writeln!(out, "{END}")
}

/// The line of a hyper-parameter: `lr 0.01` (a float in the shortest form that reads
/// back the same).
fn hyper_line(name: &str, value: f64) -> String {
    format!("{name} {value:?}")
}

/// The line of one parameter's optimiser state: its numbers, separated by spaces.
fn slot_line(slot: &[f64]) -> String {
    let numbers: Vec<String> = slot.iter().map(|x| format!("{x:?}")).collect();
    numbers.join(" ")
}

/// `Ok` if a model file can hold `state` and give it back as it is: the optimiser's
/// kind without control characters (a line break would end its line); each
/// hyper-parameter once, named without spaces or control characters and not `optimizer`,
/// `steps` or `state` (the file's own lines), with a finite value; every parameter's
/// state the same number of finite numbers, at least one; a state for each of the
/// model's `parameters` or for none; and no line longer than a reader takes.
pub(super) fn check_state(state: &OptimizerState, parameters: usize) -> Result<(), Error> {
    let refuse = |what: String| {
        Err(Error::InvalidInput(format!(
            "cannot save the optimizer's state: {what}; change what its Optimizer::state \
             returns, or save the model alone with MLP::save"
        )))
    };
    let name = |text: &str| quote(&text.escape_debug().to_string());
    let longest = MAX_LINE - 1; // and the line's `\n`
    if state.kind.chars().any(char::is_control) {
        return refuse(format!(
            "its kind {} has a control character (a line break ends a line of the \
             file); name it without one",
            name(&state.kind)
        ));
    }
    // Each line the state takes, and what it holds.
    let mut lines = vec![(
        "the `optimizer` line".to_owned(),
        format!("optimizer {}", state.kind),
    )];
    let mut seen = HashSet::new();
    for (hyper, value) in &state.hyper_parameters {
        if hyper.contains(' ') || hyper.chars().any(char::is_control) {
            return refuse(format!(
                "the hyper-parameter {} has a space or a control character in its name; a \
                 model file's `NAME VALUE` line needs a one-word name",
                name(hyper)
            ));
        }
        if ["optimizer", "steps", "state"].contains(&hyper.as_str()) {
            return refuse(format!(
                "a hyper-parameter is named {}, as a line of the model file is; rename it",
                name(hyper)
            ));
        }
        if !seen.insert(hyper) {
            return refuse(format!(
                "it gives the hyper-parameter {} twice; a model file gives each once",
                name(hyper)
            ));
        }
        if !value.is_finite() {
            return refuse(format!(
                "the hyper-parameter {} is {value}; a model file holds finite numbers only",
                name(hyper)
            ));
        }
        let what = format!("the line of the hyper-parameter {}", name(hyper));
        lines.push((what, hyper_line(hyper, *value)));
    }
    if !state.slots.is_empty() && state.slots.len() != parameters {
        return refuse(format!(
            "it holds the state of {} parameters but the model has {parameters}; a model \
             file holds one per parameter (or none)",
            state.slots.len()
        ));
    }
    let width = state.slots.first().map_or(0, Vec::len);
    for (i, slot) in state.slots.iter().enumerate() {
        if slot.is_empty() {
            return refuse(format!(
                "the state of parameter {i} has no numbers, which a line of the file cannot \
                 show; if the optimizer keeps nothing per parameter, return no slots at all"
            ));
        }
        if slot.len() != width {
            return refuse(format!(
                "the state of parameter {i} has {} numbers but that of parameter 0 has \
                 {width}; a model file holds as many for every parameter",
                slot.len()
            ));
        }
        if let Some(x) = slot.iter().find(|x| !x.is_finite()) {
            return refuse(format!(
                "the state of parameter {i} holds {x}; a model file holds finite numbers only"
            ));
        }
        lines.push((format!("the state of parameter {i}"), slot_line(slot)));
    }
    if let Some((what, line)) = lines.iter().find(|(_, l)| l.len() > longest) {
        return refuse(format!(
            "{what} would be a line of {} bytes, but a model file's lines are at most \
             {longest} bytes (and a newline)",
            line.len()
        ));
    }
    Ok(())
}

/// A model file read line by line, each line at most [`MAX_LINE`] bytes, so that a large
/// file that is not a model is refused without being read into memory.
pub(super) struct ModelReader {
    reader: BufReader<File>,
    path: PathBuf,
    /// The number of the last line read (0 before the first).
    pub(super) line: usize,
    /// The last line read.
    text: String,
    /// Whether the file must end with an [`END`] line (version 3 and later; known once
    /// the header is read).
    ends: bool,
}

impl ModelReader {
    pub(super) fn open(path: &Path) -> Result<ModelReader, Error> {
        let file = File::open(path).map_err(|source| Error::Io {
            path: path.to_path_buf(),
            source,
        })?;
        Ok(ModelReader {
            reader: BufReader::new(file),
            path: path.to_path_buf(),
            line: 0,
            text: String::new(),
            ends: false,
        })
    }

    /// An [`Error::Parse`] about this file.
    pub(super) fn error_at(&self, line: usize, column: usize, message: impl Into<String>) -> Error {
        Error::Parse {
            path: self.path.clone(),
            line,
            column,
            message: message.into(),
        }
    }

    /// The next line without its line ending (and, on line 1, without a UTF-8
    /// byte-order mark), or `None` at the end of the file. A last line without a line
    /// break is an error: every line a model file is written with ends with one, so a
    /// file that ends inside a line was cut short (a number cut there would read as
    /// another number).
    fn next_line(&mut self) -> Result<Option<&str>, Error> {
        self.text.clear();
        self.line += 1;
        let limit = MAX_LINE as u64 + 1;
        let read = (&mut self.reader).take(limit).read_line(&mut self.text);
        match read {
            Ok(0) => return Ok(None),
            Ok(_) => {}
            Err(e) if e.kind() == io::ErrorKind::InvalidData => {
                return Err(self.error_at(self.line, 1, "the line is not UTF-8 text"));
            }
            Err(source) => {
                let path = self.path.clone();
                return Err(Error::Io { path, source });
            }
        }
        if self.text.len() > MAX_LINE {
            let message = format!(
                "the line is longer than {MAX_LINE} bytes; no line of a model file is: \
                 is this a micrograd model file?"
            );
            return Err(self.error_at(self.line, 1, message));
        }
        if !self.text.ends_with('\n') {
            let message = format!(
                "the file ends inside this line, {}, before its line break: it was cut \
                 short (by a full disk or an interrupted copy?); save the model again (a \
                 file written by hand must end its last line with a line break)",
                quote(&self.text)
            );
            return Err(self.error_at(self.line, self.text.chars().count() + 1, message));
        }
        let mut text = self.text.trim_end_matches(['\n', '\r']);
        if self.line == 1 {
            text = text.strip_prefix('\u{feff}').unwrap_or(text);
        }
        Ok(Some(text))
    }

    /// The next line, which must exist: `what` says what was expected there.
    fn expect_line(&mut self, what: &str) -> Result<String, Error> {
        match self.next_line()? {
            Some(text) => Ok(text.to_owned()),
            None => Err(self.error_at(
                self.line,
                1,
                format!("the file ends where {what} was expected"),
            )),
        }
    }

    /// The next line as `keyword value`, returning the value's text and its column.
    fn keyword_line(&mut self, keyword: &str, example: &str) -> Result<(String, usize), Error> {
        let text = self.expect_line(&format!("`{example}`"))?;
        match text.split_once(' ') {
            Some((word, value)) if word == keyword => Ok((value.to_owned(), keyword.len() + 2)),
            _ => Err(self.error_at(
                self.line,
                1,
                format!("expected a line like `{example}`, found {}", quote(&text)),
            )),
        }
    }

    /// A whole number on the current line at `column`.
    fn whole_number<T: FromStr>(&self, text: &str, column: usize, what: &str) -> Result<T, Error> {
        text.parse::<T>().map_err(|_| {
            let message = format!("expected {what} (a whole number), found {}", quote(text));
            self.error_at(self.line, column, message)
        })
    }

    /// A finite number on the current line at `column`.
    fn finite(&self, text: &str, column: usize, what: &str) -> Result<f64, Error> {
        match text.trim().parse::<f64>() {
            Ok(x) if x.is_finite() => Ok(x),
            Ok(_) => Err(self.error_at(
                self.line,
                column,
                format!(
                    "{} ({what}) is not a finite number; a model file holds finite numbers only",
                    quote(text)
                ),
            )),
            Err(_) => Err(self.error_at(
                self.line,
                column,
                format!("expected a number ({what}), found {}", quote(text)),
            )),
        }
    }

    /// The header: line 1 (the format's name and version) and, in version 2, the shape,
    /// its activations those built in or those of `custom`.
    pub(super) fn header(&mut self, custom: &[CustomActivation]) -> Result<Header, Error> {
        let first = self.next_line()?.unwrap_or("").to_owned();
        let expected = format!("expected a first line `{MAGIC} version {VERSION}`");
        let Some(rest) = first.strip_prefix(MAGIC).and_then(|r| r.strip_prefix(' ')) else {
            let message = format!(
                "{expected}, found {}: not a micrograd model file",
                quote(&first)
            );
            return Err(self.error_at(1, 1, message));
        };
        let Some(version) = rest.strip_prefix("version ") else {
            return self.version_1_header(rest);
        };
        let column = MAGIC.len() + " version ".len() + 1;
        if !["2", "3"].contains(&version) {
            let message = format!(
                "this is a version {} model file; this micrograd reads versions 1 to \
                 {VERSION}: use the micrograd that wrote it, or a newer one",
                quote(version)
            );
            return Err(self.error_at(1, column, message));
        }
        self.ends = version != "2";
        let (nin, column) = self.keyword_line("input", "input 2")?;
        let nin = self.whole_number(&nin, column, "the input width")?;
        let mut layers = Vec::new();
        loop {
            let text = self.expect_line("`layer 16 ReLU` or `parameters 337`")?;
            if let Some(count) = text.strip_prefix("parameters ") {
                let count =
                    self.whole_number(count, "parameters ".len() + 1, "the parameter count")?;
                let header = Header { nin, layers };
                let shape_count = parameter_count(nin, header.layers.iter().map(|l| l.0));
                if shape_count != Some(count) {
                    let message = format!(
                        "the file says {count} parameters but its shape {} has {}",
                        describe_header(&header),
                        shape_count.map_or("too many to count".to_owned(), |c| c.to_string())
                    );
                    return Err(self.error_at(self.line, 12, message));
                }
                return Ok(header);
            }
            let layer = text.strip_prefix("layer ").and_then(|l| l.split_once(' '));
            let Some((width, activation)) = layer else {
                let message = format!(
                    "expected `layer WIDTH ACTIVATION` or `parameters COUNT`, found {}",
                    quote(&text)
                );
                return Err(self.error_at(self.line, 1, message));
            };
            let Some(activation) = Activation::named(activation, custom) else {
                let message = format!(
                    "unknown activation {}; expected ReLU, LeakyReLU(SLOPE), Tanh, Sigmoid, \
                     Linear{}; if it is an activation of your own, pass it to \
                     MLP::from_file_with_activations",
                    quote(activation),
                    custom
                        .iter()
                        .map(|c| format!(" or {}", c.name()))
                        .collect::<String>()
                );
                return Err(self.error_at(self.line, 8 + width.len(), message));
            };
            let width = self.whole_number(width, 7, "the layer's width")?;
            self.check_width(width, 7)?;
            layers.push((width, Some(activation)));
        }
    }

    /// `Ok` unless a layer's `width`, at `column` of the current line, is 0: a layer of
    /// no neurons, which no model file has (the model would ignore its input, whose
    /// width no parameter line would then bound).
    fn check_width(&self, width: usize, column: usize) -> Result<(), Error> {
        if width > 0 {
            return Ok(());
        }
        let message = "a layer of width 0 has no neurons, and no model file has one: the \
                       file is damaged; save the model again with MLP::save";
        Err(self.error_at(self.line, column, message))
    }

    /// A version-1 first line after `micrograd-mlp `: the widths, `2 16 16 1`.
    fn version_1_header(&self, widths: &str) -> Result<Header, Error> {
        let mut numbers = Vec::new();
        let mut column = MAGIC.len() + 2;
        for word in widths.split(' ') {
            let width = self.whole_number(word, column, "a layer width")?;
            if !numbers.is_empty() {
                self.check_width(width, column)?;
            }
            numbers.push(width);
            column += word.len() + 1;
        }
        let nin = numbers.remove(0);
        let layers = numbers.into_iter().map(|w| (w, None)).collect();
        Ok(Header { nin, layers })
    }

    /// The parameter lines that follow the header.
    pub(super) fn parameters(&mut self, header: &Header) -> Result<Vec<f64>, Error> {
        let count =
            parameter_count(header.nin, header.layers.iter().map(|l| l.0)).unwrap_or(usize::MAX);
        let mut values = Vec::new();
        while values.len() < count {
            let what = format!("parameter {}", values.len());
            let Some(text) = self.next_line()? else {
                let message = format!(
                    "the file ends after {} parameters, but {} has {count}",
                    values.len(),
                    describe_header(header)
                );
                return Err(self.error_at(self.line, 1, message));
            };
            let text = text.to_owned();
            values.push(self.finite(&text, 1, &what)?);
        }
        Ok(values)
    }

    /// The optimiser state after the `parameters` parameters, if there is one; then the
    /// `end` line (version 3 and later), and only blank lines after it. A state for
    /// another number of parameters (but none) is refused: the file is damaged.
    pub(super) fn optimizer(&mut self, parameters: usize) -> Result<Option<OptimizerState>, Error> {
        let first = match self.next_non_blank()? {
            Some(end) if end == END && self.ends => return self.end(true).map(|()| None),
            None => return self.end(false).map(|()| None),
            Some(first) => first,
        };
        let Some(kind) = first.strip_prefix("optimizer ") else {
            let expected = match self.ends {
                true => "an `optimizer NAME` line or `end`",
                false => "the end of the file or an `optimizer NAME` line",
            };
            let message = format!(
                "expected {expected} after the parameters, found {}",
                quote(&first)
            );
            return Err(self.error_at(self.line, 1, message));
        };
        // Where each named line was read, so that a line given twice is refused.
        let mut seen = HashMap::from([("optimizer".to_owned(), self.line)]);
        let (steps, column) = self.keyword_line("steps", "steps 120")?;
        seen.insert("steps".to_owned(), self.line);
        let mut state = OptimizerState {
            kind: kind.to_owned(),
            hyper_parameters: Vec::new(),
            steps: self.whole_number(&steps, column, "the step count")?,
            slots: Vec::new(),
        };
        let (count, width) = loop {
            let text = self.expect_line("`NAME VALUE` or `state COUNT WIDTH`")?;
            let Some((name, value)) = text.split_once(' ') else {
                let message = format!(
                    "expected `NAME VALUE` or `state COUNT WIDTH`, found {}",
                    quote(&text)
                );
                return Err(self.error_at(self.line, 1, message));
            };
            if name == "state" {
                let (count_text, width) = value.split_once(' ').unwrap_or((value, ""));
                // From the text, not the number: `state 009 2` has K at column 11.
                let column = "state ".len() + count_text.len() + 2;
                let count: usize = self.whole_number(count_text, 7, "the number of parameters")?;
                // An optimiser that keeps nothing per parameter saves `state 0 0`.
                if count != parameters && count != 0 {
                    let message = format!(
                        "`state` is for {count} parameters but the model has {parameters}: \
                         the file is damaged; save the model again with MLP::save_with"
                    );
                    return Err(self.error_at(self.line, 7, message));
                }
                let width = self.whole_number(width, column, "the numbers per parameter")?;
                if width > MAX_NUMBERS_PER_LINE {
                    let message = format!(
                        "`state` says {width} numbers per parameter, but a line of at most \
                         {MAX_LINE} bytes holds at most {MAX_NUMBERS_PER_LINE}: the file is \
                         damaged; save the model again with MLP::save_with"
                    );
                    return Err(self.error_at(self.line, column, message));
                }
                break (count, width);
            }
            if let Some(earlier) = seen.insert(name.to_owned(), self.line) {
                let message = format!(
                    "{} is given twice, on line {earlier} and here; a model file gives it \
                     once: remove one of the lines, or save the model again with \
                     MLP::save_with",
                    quote(name)
                );
                return Err(self.error_at(self.line, 1, message));
            }
            let value = self.finite(value, name.len() + 2, name)?;
            state.hyper_parameters.push((name.to_owned(), value));
        };
        while state.slots.len() < count {
            let Some(text) = self.next_line()? else {
                let message = format!(
                    "the file ends after the state of {} parameters of {count}",
                    state.slots.len()
                );
                return Err(self.error_at(self.line, 1, message));
            };
            let text = text.to_owned();
            let mut slot = Vec::new();
            let mut column = 1;
            for field in text.split(' ') {
                slot.push(self.finite(field, column, "optimizer state")?);
                column += field.len() + 1;
            }
            if slot.len() != width {
                let message = format!(
                    "found {} numbers but `state` says {width} per parameter",
                    slot.len()
                );
                return Err(self.error_at(self.line, 1, message));
            }
            state.slots.push(slot);
        }
        match self.next_non_blank()? {
            Some(end) if end == END && self.ends => self.end(true)?,
            None => self.end(false)?,
            Some(extra) => {
                let expected = if self.ends { " (expected `end`)" } else { "" };
                let message = format!(
                    "unexpected {} after the optimizer state{expected}",
                    quote(&extra)
                );
                return Err(self.error_at(self.line, 1, message));
            }
        }
        Ok(Some(state))
    }

    /// The end of the file, after the parameters and the optimiser state if any:
    /// `read_end` says whether the `end` line was just read (else the file ended). A
    /// file of version 3 or later must have that line, then nothing but blank lines.
    fn end(&mut self, read_end: bool) -> Result<(), Error> {
        if self.ends && !read_end {
            let message = "the file ends without its last line, `end`: it was cut short \
                           (by a full disk or an interrupted copy?); save the model again";
            return Err(self.error_at(self.line, 1, message));
        }
        if let Some(extra) = self.next_non_blank()? {
            let message = format!("unexpected {} after the `end` line", quote(&extra));
            return Err(self.error_at(self.line, 1, message));
        }
        Ok(())
    }

    /// Reads (and checks) an optimiser state if there is one, for a caller that only
    /// wants the model of `parameters` parameters.
    pub(super) fn skip_optimizer(&mut self, parameters: usize) -> Result<(), Error> {
        self.optimizer(parameters).map(|_| ())
    }

    /// The next line that is not blank, or `None` at the end of the file.
    fn next_non_blank(&mut self) -> Result<Option<String>, Error> {
        while let Some(text) = self.next_line()? {
            if !text.trim().is_empty() {
                return Ok(Some(text.to_owned()));
            }
        }
        Ok(None)
    }
}
