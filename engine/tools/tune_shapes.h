/* tune_shapes.h: bin/tune's commands for the learned table (engine/shapes.h). */
#ifndef GOMOKU_TUNE_SHAPES_H
#define GOMOKU_TUNE_SHAPES_H

/* `tune label RULE GAMES NODES DEEP SEED OUT`: 0, 1 on a failure, 2 for
 * bad arguments. */
int tune_label(int argc, char **argv);
/* `tune shapes [-i ITERS] [-l LAMBDA] [-p PLAMBDA] [-m MIN] [-o SHAPES] FILE...`: likewise. */
int tune_shapes(int argc, char **argv);

#endif
