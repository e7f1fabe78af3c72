package org.dfr.harness;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RankJvmArchiveTest {

    @TempDir
    Path dir;

    private String savedDirectory;

    @BeforeEach
    void pointTheArchivesAtATemporaryDirectory() {
        savedDirectory = System.getProperty(RankJvmArchive.DIRECTORY_PROPERTY);
        System.setProperty(RankJvmArchive.DIRECTORY_PROPERTY, dir.resolve("cds").toString());
    }

    @AfterEach
    void restore() {
        if (savedDirectory == null) {
            System.clearProperty(RankJvmArchive.DIRECTORY_PROPERTY);
        } else {
            System.setProperty(RankJvmArchive.DIRECTORY_PROPERTY, savedDirectory);
        }
    }

    @Test
    void when_aDirectoryComesBeforeAJar_then_noArchiveAndNoOption() throws Exception {
        // the JVM would refuse to write an archive: "Cannot have non-empty directory in paths"
        Path jar = Files.writeString(dir.resolve("a.jar"), "jar");
        Files.createDirectories(dir.resolve("classes"));
        String classPath = dir.resolve("classes") + File.pathSeparator + jar;

        RankJvmArchive archive = RankJvmArchive.forClassPath(classPath);

        assertThat(RankJvmArchive.key(classPath)).isEmpty();
        assertThat(archive.optionsFor(0)).isEmpty();
        assertThat(archive.optionsFor(1)).isEmpty();
    }

    @Test
    void when_directoriesComeAfterTheJars_then_theJarsAreArchivedAndAClassRecompiledThereKeepsTheArchive()
            throws Exception {
        Path jar = Files.writeString(dir.resolve("a.jar"), "jar");
        Path classes = Files.createDirectories(dir.resolve("classes"));
        String classPath = jar + File.pathSeparator + classes + File.pathSeparator + dir.resolve("missing");

        Optional<String> before = RankJvmArchive.key(classPath);
        Files.writeString(classes.resolve("A.class"), "recompiled");

        assertThat(before).isPresent();
        assertThat(RankJvmArchive.key(classPath)).isEqualTo(before);
        assertThat(RankJvmArchive.forClassPath(classPath).optionsFor(0).get(0)).startsWith("-XX:ArchiveClassesAtExit=");
    }

    @Test
    void when_noArchiveExists_then_rankZeroWritesItAtExitAndTheRunAdoptsIt() throws Exception {
        Path jar = Files.writeString(dir.resolve("a.jar"), "jar");
        RankJvmArchive archive = RankJvmArchive.forClassPath(jar.toString());

        assertThat(archive.inUse()).isFalse();
        assertThat(archive.optionsFor(1)).isEmpty();
        String option = archive.optionsFor(0).get(0);
        assertThat(option).startsWith("-XX:ArchiveClassesAtExit=");
        // what the JVM of rank 0 would write when it exits
        Path pending = Path.of(option.substring(option.indexOf('=') + 1));
        Files.write(pending, new byte[8_192]);

        archive.adopt(true);

        assertThat(pending).doesNotExist();
        RankJvmArchive next = RankJvmArchive.forClassPath(jar.toString());
        assertThat(next.inUse()).isTrue();
        assertThat(next.optionsFor(3).get(0)).startsWith("-XX:SharedArchiveFile=").endsWith(".jsa");
    }

    @Test
    void when_moreArchivesThanKeptExist_then_onlyTheNewestRemain() throws Exception {
        Path cds = Files.createDirectories(dir.resolve("cds"));
        for (int i = 0; i < 6; i++) {
            Path a = Files.write(cds.resolve("rank-" + i + ".jsa"), new byte[1]);
            Files.setLastModifiedTime(a, FileTime.fromMillis(1_000_000L * (i + 1)));
        }

        RankJvmArchive.pruneOldArchives(cds, 4);

        try (var files = Files.list(cds)) {
            assertThat(files.map(p -> p.getFileName().toString()))
                    .containsExactlyInAnyOrder("rank-2.jsa", "rank-3.jsa", "rank-4.jsa", "rank-5.jsa");
        }
    }

    @Test
    void when_theJarChanges_then_itsArchiveIsAnotherOne() throws Exception {
        Path jar = Files.writeString(dir.resolve("a.jar"), "jar");
        String before = RankJvmArchive.key(jar.toString()).orElseThrow();

        Files.setLastModifiedTime(jar, FileTime.fromMillis(Files.getLastModifiedTime(jar).toMillis() + 5_000));

        assertThat(RankJvmArchive.key(jar.toString()).orElseThrow()).isNotEqualTo(before);
    }

    @Test
    void when_rankZeroExitedCleanlyWithoutWritingTheArchive_then_laterRunsDoNotTryAgain() throws Exception {
        Path jar = Files.writeString(dir.resolve("a.jar"), "jar");

        RankJvmArchive.forClassPath(jar.toString()).adopt(true);

        RankJvmArchive next = RankJvmArchive.forClassPath(jar.toString());
        assertThat(next.optionsFor(0)).isEmpty();
        assertThat(next.inUse()).isFalse();
    }

    @Test
    void when_rankZeroDied_then_theNextRunTriesAgain() throws Exception {
        Path jar = Files.writeString(dir.resolve("a.jar"), "jar");

        RankJvmArchive.forClassPath(jar.toString()).adopt(false);

        assertThat(RankJvmArchive.forClassPath(jar.toString()).optionsFor(0).get(0))
                .startsWith("-XX:ArchiveClassesAtExit=");
    }
}
