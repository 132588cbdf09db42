// bundle-validate runs the operator-framework's own bundle validation on an OLM bundle directory
// (manifests/ and metadata/), as `operator-sdk bundle validate` does: the bundle is loaded by
// github.com/operator-framework/api/pkg/manifests and checked by its pkg/validation validators.
//
// Usage: bundle-validate [-k8s-version 1.25.0] BUNDLE_DIR
//
// It runs the default validators (CSV, CRD, bundle) and the optional suites that need no registry
// or container tool: OperatorHub (v2), standard capabilities and categories, good practices,
// removed APIs (for -k8s-version) and the checks of extra objects such as RBAC.
// Every finding is printed as "ERROR ..." or "WARNING ..." on stdout, then a summary line; the exit
// status is 1 when any error was found (or the bundle could not be loaded), 0 otherwise.
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/operator-framework/api/pkg/manifests"
	"github.com/operator-framework/api/pkg/validation"
	"github.com/operator-framework/api/pkg/validation/errors"
)

func main() {
	k8sVersion := flag.String("k8s-version", "", "the Kubernetes version the bundle targets (for the removed-APIs check); default: the CSV's minKubeVersion")
	flag.Parse()
	if flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: bundle-validate [-k8s-version X.Y.Z] BUNDLE_DIR")
		os.Exit(2)
	}

	bundle, err := manifests.GetBundleFromDir(flag.Arg(0))
	if err != nil {
		fmt.Printf("ERROR the bundle cannot be loaded: %v\n", err)
		fmt.Println("bundle-validate: 1 errors, 0 warnings")
		os.Exit(1)
	}

	validators := validation.DefaultBundleValidators.WithValidators(
		validation.OperatorHubV2Validator,
		validation.StandardCapabilitiesValidator,
		validation.StandardCategoriesValidator,
		validation.GoodPracticesValidator,
		validation.AlphaDeprecatedAPIsValidator,
		validation.ObjectValidator,
	)
	objects := bundle.ObjectsToValidate()
	if *k8sVersion != "" {
		// the optional suites read their options from a map among the objects
		objects = append(objects, map[string]string{"k8s-version": *k8sVersion})
	}

	errorCount, warningCount := 0, 0
	for _, result := range validators.Validate(objects...) {
		for _, e := range result.Errors {
			errorCount++
			fmt.Printf("ERROR %s\n", describe(result, e))
		}
		for _, w := range result.Warnings {
			warningCount++
			fmt.Printf("WARNING %s\n", describe(result, w))
		}
	}
	fmt.Printf("bundle-validate: %d errors, %d warnings (bundle %s, package %q)\n", errorCount, warningCount, bundle.Name, bundle.Package)
	if errorCount > 0 {
		os.Exit(1)
	}
}

func describe(result errors.ManifestResult, e errors.Error) string {
	if result.Name == "" {
		return e.Error()
	}
	return fmt.Sprintf("[%s] %s", result.Name, e.Error())
}
