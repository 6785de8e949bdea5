/* main.c: copied by examples/09_codegen.rs beside the mnist_train.c it writes. Trains the generated
 * MNIST 784-32-10 network with Adam on MNIST's IDX files (plain, not .gz), as 07_mnist
 * does: mini-batches of the images but the last N (--holdout N), which it tests on
 * after every epoch. Only this file uses the C library (stdio, stdlib, time);
 * mnist_train.c needs math.h alone.
 *
 *   mnist_train --data DIR --holdout N [--limit N] [--epochs N] [--batch-size N]
 *               [--lr X] [--seed N]
 *
 * The training time is wall-clock time (POSIX clock_gettime), as the Rust examples
 * measure theirs.
 */
#define _POSIX_C_SOURCE 199309L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "mnist_train.h"

typedef mnist_train_real real;

/* The network's numbers: values, gradients, Adam's state (no malloc in mnist_train.c). */
static real buf[MNIST_TRAIN_BUFFER_LEN];

/* A big-endian 32-bit number of an IDX header. */
static unsigned long be32(const unsigned char *b) {
    return ((unsigned long)b[0] << 24) | ((unsigned long)b[1] << 16) | ((unsigned long)b[2] << 8) | b[3];
}

/* The items of DIR/<set>-<kind> (an IDX file whose magic is `magic`), `*count` of them,
 * each `size` bytes; exits with a message if the file is not there or not right. */
static unsigned char *read_idx(const char *dir, const char *set, const char *kind,
                               unsigned long magic, unsigned long size, unsigned long *count) {
    char path[4096];
    unsigned char head[16];
    unsigned long header = magic == 0x803 ? 16 : 8;
    unsigned char *items;
    FILE *f;
    sprintf(path, "%.4000s/%s-%s", dir, set, kind);
    f = fopen(path, "rb");
    if (!f) return NULL;
    if (fread(head, 1, header, f) != header || be32(head) != magic ||
        (magic == 0x803 && be32(head + 8) * be32(head + 12) != size)) {
        fprintf(stderr, "error: %s is not an IDX file of %lu-byte items\n", path, size);
        exit(1);
    }
    *count = be32(head + 4);
    items = (unsigned char *)malloc(*count * size);
    if (!items || fread(items, size, *count, f) != *count) {
        fprintf(stderr, "error: %s ends early\n", path);
        exit(1);
    }
    fclose(f);
    return items;
}

/* Seconds since some fixed time in the past. */
static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* A small random number generator (xorshift64*) for the shuffles. */
static unsigned long long rng_state;
static unsigned long long next_random(void) {
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return rng_state * 0x2545F4914F6CDD1DULL;
}

/* Writes image `i`'s pixels (byte / 255) into the network's input leaves. */
static void set_image(const unsigned char *images, unsigned long i) {
    real x[MNIST_TRAIN_IMAGE_LEN];
    int p;
    for (p = 0; p < MNIST_TRAIN_IMAGE_LEN; p++) x[p] = (real)(images[i * 784 + p] / 255.0);
    mnist_train_set_image(buf, x);
}

/* The first largest logit of the last forward pass. */
static int predicted(void) {
    real z[MNIST_TRAIN_OUTPUTS];
    int c, best = 0;
    mnist_train_outputs(buf, z);
    for (c = 1; c < MNIST_TRAIN_OUTPUTS; c++)
        if (z[c] > z[best]) best = c;
    return best;
}

int main(int argc, char **argv) {
    const char *dir = NULL, *set = "train";
    long holdout = -1, limit = -1, epochs = 5, batch = 32, seed = 0;
    double lr = 0.002, seconds = 0.0, loss = 0.0, accuracy = 0.0;
    unsigned long n, n_labels, train, i, b, k, *order, step = 0;
    unsigned char *images, *labels;
    char taken[96];
    long epoch;
    int a;
    for (a = 1; a + 1 < argc; a += 2) {
        if (!strcmp(argv[a], "--data")) dir = argv[a + 1];
        else if (!strcmp(argv[a], "--holdout")) holdout = atol(argv[a + 1]);
        else if (!strcmp(argv[a], "--limit")) limit = atol(argv[a + 1]);
        else if (!strcmp(argv[a], "--epochs")) epochs = atol(argv[a + 1]);
        else if (!strcmp(argv[a], "--batch-size")) batch = atol(argv[a + 1]);
        else if (!strcmp(argv[a], "--lr")) lr = atof(argv[a + 1]);
        else if (!strcmp(argv[a], "--seed")) seed = atol(argv[a + 1]);
        else break;
    }
    if (a != argc || !dir || holdout < 1 || epochs < 1 || batch < 1) {
        fprintf(stderr, "usage: %s --data DIR --holdout N [--limit N] [--epochs N] "
                        "[--batch-size N] [--lr X] [--seed N]\n", argv[0]);
        return 1;
    }
    images = read_idx(dir, set, "images-idx3-ubyte", 0x803, 784, &n);
    if (!images) {
        set = "t10k";
        images = read_idx(dir, set, "images-idx3-ubyte", 0x803, 784, &n);
    }
    labels = images ? read_idx(dir, set, "labels-idx1-ubyte", 0x801, 1, &n_labels) : NULL;
    if (!images || !labels || n != n_labels || (unsigned long)holdout >= n) {
        fprintf(stderr, "error: no MNIST images and labels of the same count (more than "
                        "--holdout %ld) in %s\n", holdout, dir);
        return 1;
    }
    train = n - (unsigned long)holdout;
    if (limit > 0 && (unsigned long)limit < train) train = (unsigned long)limit;
    order = (unsigned long *)malloc(train * sizeof *order);
    if (!order) return 1;
    for (i = 0; i < train; i++) order[i] = i;
    rng_state = 0x9E3779B97F4A7C15ULL ^ (unsigned long long)seed;

    mnist_train_init(buf);
    for (epoch = 1; epoch <= epochs; epoch++) {
        double sum = 0.0;
        unsigned long batches = 0, correct = 0;
        double start = now();
        for (i = train; i > 1; i--) { /* Fisher-Yates */
            unsigned long j = (unsigned long)(next_random() % i), t = order[i - 1];
            order[i - 1] = order[j];
            order[j] = t;
        }
        for (b = 0; b < train; b += (unsigned long)batch) {
            unsigned long len = train - b < (unsigned long)batch ? train - b : (unsigned long)batch;
            real scale = (real)(1.0 / (double)len), batch_loss = 0;
            mnist_train_set_scale(buf, &scale);
            for (k = 0; k < len; k++) {
                real onehot[MNIST_TRAIN_LABEL_LEN] = {0};
                unsigned long image = order[b + k];
                onehot[labels[image]] = 1;
                set_image(images, image);
                mnist_train_set_label(buf, onehot);
                batch_loss += mnist_train_forward(buf);
                mnist_train_backward(buf);
            }
            mnist_train_adam(buf, (real)lr, (real)0.9, (real)0.999, (real)1e-8);
            sum += (double)batch_loss;
            batches++;
            step++;
        }
        seconds += now() - start;
        for (i = n - (unsigned long)holdout; i < n; i++) {
            set_image(images, i);
            mnist_train_forward(buf);
            correct += predicted() == labels[i];
        }
        loss = sum / (double)batches;
        accuracy = 100.0 * (double)correct / (double)holdout;
        printf("step %lu loss %.17g, accuracy %.2f%%\n", step - 1, loss, accuracy);
        fflush(stdout);
    }
    /* The batch each step had: the whole training set when --batch-size is more. */
    if ((unsigned long)batch > train)
        snprintf(taken, sizeof taken, "batch %lu (the whole training set; --batch-size %ld)",
                 train, batch);
    else
        snprintf(taken, sizeof taken, "batch %ld", batch);
    printf("training: %.2f s, %.2f \xC2\xB5s per sample-step (forward + backward + update, "
           "%s, %s)\n", seconds, 1e6 * seconds / (double)(epochs * (long)train), taken,
           sizeof(real) == 8 ? "double" : "float");
    printf("final step=%lu loss=%.17g accuracy=%.2f%%\n", step - 1, loss, accuracy);
    free(order);
    free(images);
    free(labels);
    return 0;
}
