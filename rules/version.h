/*
 * version.h: the release of gomokud and its programs, one number for all
 * of them (gomokud, gomoku, pbrain-gomoku and the tools): each prints it
 * for --version as "<program> <version>".
 */
#ifndef GOMOKU_VERSION_H
#define GOMOKU_VERSION_H

#define GOMOKU_VERSION "0.1.0"

#endif
