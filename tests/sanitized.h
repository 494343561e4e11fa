/* sanitized.h: TESTS_SANITIZED is 1 in a build with AddressSanitizer or
 * ThreadSanitizer (gcc's macros, clang's __has_feature), else 0. Such a
 * build's brain maps terabytes of shadow memory at its start, so the
 * tests give brains no address-space limit there. */
#ifndef TESTS_SANITIZED_H
#define TESTS_SANITIZED_H

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define TESTS_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define TESTS_SANITIZED 1
#endif
#endif
#ifndef TESTS_SANITIZED
#define TESTS_SANITIZED 0
#endif

#endif
