// argocd-health evaluates Argo CD resource health the way Argo CD itself does, so the project's
// health.lua scripts are tested on Argo CD's engine (gopher-lua inside Argo CD's sandbox) rather
// than on a look-alike.
//
// It is `argocd admin settings resource-overrides health RESOURCE --argocd-cm-path CM` in a
// loop: the argocd-cm ConfigMap goes through Argo CD's settings manager (which reads the
// resource.customizations.health.<group>_<kind> and ...useOpenLibs... keys), and the resource
// through gitops-engine's health.GetResourceHealth with Argo CD's Lua overrides, as the
// application controller computes it.
//
// Protocol (one process serves many requests): each line on stdin is a JSON object
//
//	{"argocdCm": <ConfigMap>, "object": <resource>}
//
// and each answer is one JSON line on stdout:
//
//	{"configured": true, "status": "Degraded", "message": "..."}   a health was computed
//	{"configured": false}                                           no health check for this kind
//	{"error": "..."}                                                the script or the input failed
//
// Built by build.sh beside this file against github.com/argoproj/argo-cd/v3.
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"

	healthutil "github.com/argoproj/argo-cd/gitops-engine/v3/pkg/health"
	log "github.com/sirupsen/logrus"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/client-go/kubernetes/fake"

	"github.com/argoproj/argo-cd/v3/common"
	"github.com/argoproj/argo-cd/v3/pkg/apis/application/v1alpha1"
	"github.com/argoproj/argo-cd/v3/util/lua"
	"github.com/argoproj/argo-cd/v3/util/settings"
)

type request struct {
	ArgocdCm *corev1.ConfigMap `json:"argocdCm"`
	// decoded by Unstructured itself, as the objects Argo CD holds are (whole numbers as int64)
	Object json.RawMessage `json:"object"`
}

type answer struct {
	Configured bool   `json:"configured"`
	Status     string `json:"status,omitempty"`
	Message    string `json:"message,omitempty"`
	Error      string `json:"error,omitempty"`
}

// settingsNamespace is where the admin command puts the local argocd-cm; any namespace works as
// long as the ConfigMap, the Secret and the settings manager agree.
const settingsNamespace = "default"

// withSettingsMeta does what the admin command's setSettingsMeta does: the settings manager only
// sees objects labelled part-of argocd in its namespace.
func withSettingsMeta(obj metav1.Object) {
	obj.SetNamespace(settingsNamespace)
	labels := obj.GetLabels()
	if labels == nil {
		labels = map[string]string{}
	}
	labels["app.kubernetes.io/part-of"] = "argocd"
	obj.SetLabels(labels)
}

// resourceOverrides reads the overrides from argocd-cm through Argo CD's settings manager, with
// the placeholder argocd-secret the admin command uses when no secret is given.
func resourceOverrides(ctx context.Context, cm *corev1.ConfigMap) (map[string]v1alpha1.ResourceOverride, error) {
	cm = cm.DeepCopy()
	cm.Name = common.ArgoCDConfigMapName
	withSettingsMeta(cm)
	secret := &corev1.Secret{
		ObjectMeta: metav1.ObjectMeta{Name: common.ArgoCDSecretName},
		Data: map[string][]byte{
			"admin.password":   []byte("test"),
			"server.secretkey": []byte("test"),
		},
	}
	withSettingsMeta(secret)
	manager := settings.NewSettingsManager(ctx, fake.NewClientset(secret, cm), settingsNamespace)
	if err := manager.ResyncInformers(); err != nil {
		return nil, err
	}
	return manager.GetResourceOverrides()
}

func evaluate(ctx context.Context, cache map[string]map[string]v1alpha1.ResourceOverride, line []byte) answer {
	var req request
	if err := json.Unmarshal(line, &req); err != nil {
		return answer{Error: "bad request: " + err.Error()}
	}
	if req.ArgocdCm == nil || req.Object == nil {
		return answer{Error: "bad request: argocdCm and object are required"}
	}
	// the same argocd-cm comes with most requests: read it once
	key, _ := json.Marshal(req.ArgocdCm.Data)
	overrides, ok := cache[string(key)]
	if !ok {
		var err error
		if overrides, err = resourceOverrides(ctx, req.ArgocdCm); err != nil {
			return answer{Error: "argocd-cm: " + err.Error()}
		}
		cache[string(key)] = overrides
	}
	res := &unstructured.Unstructured{}
	if err := res.UnmarshalJSON(req.Object); err != nil {
		return answer{Error: "object: " + err.Error()}
	}
	health, err := healthutil.GetResourceHealth(res, lua.ResourceHealthOverrides(overrides))
	switch {
	case err != nil:
		return answer{Error: err.Error()}
	case health == nil:
		return answer{Configured: false}
	default:
		return answer{Configured: true, Status: string(health.Status), Message: health.Message}
	}
}

func main() {
	// the settings manager logs at info level; only answers belong on stdout
	log.SetOutput(os.Stderr)
	log.SetLevel(log.WarnLevel)
	ctx := context.Background()
	cache := map[string]map[string]v1alpha1.ResourceOverride{}
	in := bufio.NewReaderSize(os.Stdin, 1<<20)
	out := json.NewEncoder(os.Stdout)
	for {
		line, err := in.ReadBytes('\n')
		if len(line) > 0 {
			if encodeErr := out.Encode(evaluate(ctx, cache, line)); encodeErr != nil {
				fmt.Fprintln(os.Stderr, "argocd-health:", encodeErr)
				os.Exit(1)
			}
		}
		if err == io.EOF {
			return
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "argocd-health:", err)
			os.Exit(1)
		}
	}
}
